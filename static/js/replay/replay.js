// The replay page: steps through the positions the server computed; the game page's board
// (static/js/game/board.js) draws each one, so a replay looks like the game itself.
// Buttons, ←/→, Home/End, clicking a move, autoplay with a speed, #N or ?ply=N links, and,
// for a game still being played, the match socket: each new state makes the page fetch the
// replay data again (one cached computation per version on the server). For a finished duel,
// the AI's analysis once a worker has made it: the evaluation graph (graph.js) and the marks
// of the moves, inaccuracies "?!", mistakes "?" and blunders "??", exact or estimated.

import { Board } from "../game/board.js";
import { moveHtml } from "../game/cards.js";
import { numberFormat } from "../game/numbers.js";
import { EvalGraph } from "./graph.js";
import { ReconnectingSocket } from "../socket.js";

const MARK_SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
}

function formatSpent(ms) {
  if (ms === null || ms === undefined) return "";
  if (ms < 60000) {
    return numberFormat({
      style: "unit", unit: "second", unitDisplay: "short",
      minimumFractionDigits: 1, maximumFractionDigits: 1,
    }).format(ms / 1000);
  }
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

const json = (id) => JSON.parse(document.getElementById(id).textContent);

let data = json("replay-data");
const labels = json("replay-labels");
const root = document.querySelector("[data-testid=replay]");
const boardRoot = document.getElementById("replay-board");
const board = new Board(boardRoot, { labels: labels.board, send: () => {}, matchUrl: "", replayUrl: "" });
let boardVersion = 0;
const status = document.getElementById("replay-status");
const list = document.getElementById("move-list");
const scrub = document.getElementById("replay-scrub");
const speed = document.getElementById("replay-speed");
const playButton = root.querySelector("[data-action=play]");

let ply = 0;
let timer = null;

const lastPly = () => Math.max(0, data.positions.length - 1);

function plyFromLocation() {
  const hash = window.location.hash.replace(/^#/, "");
  if (/^\d+$/.test(hash)) return Number(hash);
  return json("replay-initial-ply");
}

function buildMoveList() {
  list.replaceChildren();
  data.positions.forEach((position, i) => {
    if (i === 0) return;
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.ply = String(i);
    button.dataset.testid = `move-${i}`;
    const number = document.createElement("span");
    number.className = "move-number";
    number.textContent = `${i}.`;
    const seat = data.seats[position.seat];
    const who = document.createElement("span");
    who.className = `move-seat suit-${seat ? seat.trump : ""}`;
    who.textContent = seat ? seat.name : "";
    const text = document.createElement("span");
    text.className = "move-text";
    text.innerHTML = moveHtml(position.move, labels.board);
    button.append(number, text, who);
    if (position.spent !== null && position.spent !== undefined) {
      const spent = document.createElement("span");
      spent.className = "move-spent";
      spent.textContent = formatSpent(position.spent);
      button.append(spent);
    }
    const mark = data.marks && data.marks[String(i)];
    if (mark) {
      button.classList.add("marked", `kind-${mark.kind}`);
      const flag = document.createElement("span");
      flag.className = `move-mark kind-${mark.kind} ${mark.exact ? "exact" : "estimate"}`;
      flag.dataset.testid = `mark-${i}`;
      flag.dataset.kind = mark.kind;
      flag.dataset.exact = String(Boolean(mark.exact));
      flag.title = markTitle(mark);
      flag.setAttribute("aria-label", flag.title);
      flag.textContent = MARK_SYMBOLS[mark.kind] || "!";
      button.append(flag);
    }
    button.addEventListener("click", () => go(i));
    item.append(button);
    list.append(item);
  });
  scrub.max = String(lastPly());
}

/** Scroll the move list (and only it: the page stays where the reader has it) so that
 *  `item` is in view. */
function keepInView(item) {
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

function showStatus(position) {
  status.replaceChildren();
  const line = document.createElement("p");
  line.className = "status-line";
  if (position.ply === 0) {
    line.textContent = labels.deal;
  } else {
    const seat = data.seats[position.seat];
    line.textContent = `${fill(labels.move, { ply: position.ply })}: ${seat ? seat.name : ""} `;
    const move = document.createElement("span");
    move.className = "move-text";
    move.dataset.testid = "status-move";
    move.innerHTML = moveHtml(position.move, labels.board);
    line.append(move);
    if (position.spent !== null && position.spent !== undefined) {
      const spent = document.createElement("span");
      spent.className = "spent";
      spent.dataset.testid = "spent";
      spent.textContent = ` · ${fill(labels.spent, { time: formatSpent(position.spent) })}`;
      line.append(spent);
    }
  }
  status.append(line);
  const mark = data.marks && data.marks[String(position.ply)];
  if (mark) showMark(mark, position);
}

function markTitle(mark) {
  const kind = labels.kinds[mark.kind] || mark.kind;
  return fill(mark.exact ? labels.mark_exact : labels.mark_estimate, { kind });
}

const evalFormat = () => numberFormat({
  minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero",
});

function showMark(mark, position) {
  const note = document.createElement("p");
  note.className = `status-mark kind-${mark.kind}`;
  note.dataset.testid = "status-mark";
  note.dataset.kind = mark.kind;
  note.dataset.exact = String(Boolean(mark.exact));
  note.textContent = markTitle(mark);
  const seat = data.seats[position.seat];
  const name = seat ? seat.name : "";
  const detail = document.createElement("span");
  detail.className = "mark-detail";
  if (mark.exact) {
    const words = labels.value_words;
    detail.textContent = `: ${fill(labels.mark_detail, {
      before: words[String(Math.round(mark.before))], after: words[String(Math.round(mark.after))], name,
    })}`;
  } else {
    const format = evalFormat();
    detail.textContent = `: ${fill(labels.mark_fell, {
      before: format.format(mark.before), after: format.format(mark.after), name,
    })}`;
  }
  note.append(detail);
  status.append(note);
  if (mark.best && mark.best.length) {
    const best = document.createElement("p");
    best.className = "status-best";
    best.dataset.testid = "status-best";
    best.innerHTML = fill(mark.exact ? labels.mark_best : labels.mark_preferred,
      { moves: mark.best.map((move) => moveHtml(move, labels.board)).join(", ") });
    status.append(best);
  }
}

// --- the evaluation graph and the evaluation of the position shown ---------------------------

const evalPanel = document.getElementById("replay-eval");
const evalNow = document.getElementById("eval-now");
const evalLegend = document.getElementById("eval-legend");
const graph = evalPanel
  ? new EvalGraph(document.getElementById("eval-graph"), {
    label: labels.graph,
    onSelect: (target) => {
      stopAutoplay();
      if (target !== ply) go(target);
    },
  })
  : null;

function analysed() {
  const analysis = data.analysis;
  return Boolean(analysis && analysis.status === "done" && analysis.values && analysis.values.length);
}

function showGraph() {
  if (!evalPanel) return;
  evalPanel.hidden = !analysed();
  if (evalPanel.hidden) return;
  const names = data.seats.map((seat) => seat.name);
  evalLegend.textContent = fill(labels.legend, { top: names[0] || "", bottom: names[1] || "" });
  graph.show(data.analysis.values, data.analysis.exact, data.marks);
  graph.setPly(ply);
  showEvaluation();
}

function showEvaluation() {
  if (!evalPanel || !analysed()) return;
  const { values, exact } = data.analysis;
  const at = Math.min(ply, values.length - 1);
  const value = values[at];
  evalNow.dataset.exact = String(Boolean(exact[at]));
  evalNow.dataset.value = String(value);
  if (exact[at] && value !== 0) {
    const seat = data.seats[value > 0 ? 0 : 1];
    evalNow.textContent = fill(labels.eval_exact_win, { name: seat ? seat.name : "" });
  } else if (exact[at]) {
    evalNow.textContent = labels.eval_exact_draw;
  } else {
    evalNow.textContent = fill(labels.eval_estimate, { value: evalFormat().format(value) });
  }
}

function go(target, { keepHash = false } = {}) {
  if (!data.positions.length) return;
  ply = Math.max(0, Math.min(lastPly(), target));
  const position = data.positions[ply];
  const state = data.states[ply];
  boardVersion += 1;
  // The server's state of this ply, but for the moves before it, which the positions hold once.
  board.setState({ ...state, version: boardVersion, moves: data.positions.slice(1, ply + 1).map((p) => [p.seat, p.move]) });
  if (state.last_move && state.last_move.taken.length) {
    const hand = boardRoot.querySelector(`[data-testid=hand-${position.seat}]`);
    for (const card of state.last_move.taken) {
      const node = hand && hand.querySelector(`[data-card="${card}"]`);
      if (node) node.classList.add("just-taken");
    }
  }
  showStatus(position);
  root.dataset.ply = String(ply);
  scrub.value = String(ply);
  if (graph) graph.setPly(ply);
  showEvaluation();
  for (const button of list.querySelectorAll("button.move.current")) {
    button.classList.remove("current");
    button.removeAttribute("aria-current");
  }
  const current = list.querySelector(`button.move[data-ply="${ply}"]`);
  if (current) {
    current.classList.add("current");
    current.setAttribute("aria-current", "step");
    keepInView(current);
  } else {
    list.scrollTop = 0;
  }
  root.querySelector("[data-action=first]").disabled = ply === 0;
  root.querySelector("[data-action=prev]").disabled = ply === 0;
  root.querySelector("[data-action=next]").disabled = ply === lastPly();
  root.querySelector("[data-action=last]").disabled = ply === lastPly();
  if (!keepHash) {
    const url = new URL(window.location.href);
    url.searchParams.delete("ply");
    url.hash = String(ply);
    window.history.replaceState(null, "", url);
  }
  if (timer && ply === lastPly() && !data.live) stopAutoplay();
}

function stopAutoplay() {
  clearInterval(timer);
  timer = null;
  playButton.setAttribute("aria-pressed", "false");
  playButton.title = labels.play;
}

function startAutoplay() {
  if (ply === lastPly() && !data.live) go(0);
  playButton.setAttribute("aria-pressed", "true");
  playButton.title = labels.pause;
  timer = setInterval(() => {
    if (ply < lastPly()) go(ply + 1);
    else if (!data.live) stopAutoplay();
  }, Number(speed.value));
}

function toggleAutoplay() {
  if (timer) stopAutoplay();
  else startAutoplay();
}

speed.addEventListener("change", () => {
  if (timer) {
    stopAutoplay();
    startAutoplay();
  }
});

root.querySelector(".replay-controls").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const action = button.dataset.action;
  if (action !== "play") stopAutoplay();
  if (action === "first") go(0);
  else if (action === "prev") go(ply - 1);
  else if (action === "next") go(ply + 1);
  else if (action === "last") go(lastPly());
  else if (action === "play") toggleAutoplay();
});

scrub.addEventListener("input", () => {
  stopAutoplay();
  go(Number(scrub.value));
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const moves = { ArrowLeft: () => go(ply - 1), ArrowRight: () => go(ply + 1),
    Home: () => go(0), End: () => go(lastPly()) };
  const action = moves[event.key];
  if (!action) return;
  event.preventDefault();
  stopAutoplay();
  action();
});

window.addEventListener("hashchange", () => {
  const hash = window.location.hash.replace(/^#/, "");
  if (/^\d+$/.test(hash) && Number(hash) !== ply) go(Number(hash), { keepHash: true });
});

// --- the AI's analysis of a finished duel: computed by a worker, shown when ready -------------

const analysisNote = document.getElementById("replay-analysis");

function showAnalysis() {
  const analysis = data.analysis;
  if (!analysisNote) return;
  analysisNote.hidden = !analysis || analysis.status === "unavailable" || analysis.status === "none";
  showGraph();
  if (analysisNote.hidden) return;
  analysisNote.dataset.status = analysis.status;
  if (analysis.status === "pending") {
    analysisNote.textContent = labels.analysis_pending;
    return;
  }
  const count = numberFormat();
  const marks = Object.values(data.marks || {});
  const of = (kind) => count.format(marks.filter((mark) => mark.kind === kind).length);
  const exact = (analysis.exact || []).filter(Boolean).length;
  analysisNote.textContent = `${fill(labels.analysis_summary, {
    exact: count.format(exact), total: count.format((analysis.values || []).length),
  })} ${fill(labels.mark_counts, { blunder: of("blunder"), mistake: of("mistake"), inaccuracy: of("inaccuracy") })}`;
}

// While the analysis is pending the page asks for the replay's data again, less and less often
// (a busy worker may take many minutes), until the analysis is done or failed.
const ANALYSIS_POLL_FIRST_MS = 2000;
const ANALYSIS_POLL_MAX_MS = 30_000;
let analysisPollDelay = ANALYSIS_POLL_FIRST_MS;

async function pollAnalysis() {
  if (!data.analysis || data.analysis.status !== "pending" || !data.data_url) return;
  try {
    // Not from the browser's cache: a finished game's data may be cached for a minute.
    const response = await fetch(data.data_url, {
      headers: { Accept: "application/json" }, cache: "no-store",
    });
    if (response.ok) {
      const fresh = await response.json();
      if (!fresh.analysis || fresh.analysis.status !== "pending") {
        data.analysis = fresh.analysis;
        data.marks = fresh.marks;
        buildMoveList();
        go(ply, { keepHash: true });
        showAnalysis();
        return;
      }
    }
  } catch {
    // the next poll tries again
  }
  analysisPollDelay = Math.min(ANALYSIS_POLL_MAX_MS, Math.round(analysisPollDelay * 1.5));
  setTimeout(pollAnalysis, analysisPollDelay);
}

// --- a game being played: follow it through the match socket ---------------------------------

let fetching = null;
let wantedVersion = 0;

async function refresh() {
  if (!data.data_url) return;
  if (fetching) return fetching; // the newest state is fetched again once this one is in
  fetching = (async () => {
    try {
      const response = await fetch(data.data_url, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const fresh = await response.json();
      const following = ply === lastPly();
      data = fresh;
      const waiting = document.querySelector("[data-testid=replay-waiting]");
      if (waiting) waiting.hidden = data.positions.length > 0;
      buildMoveList();
      go(following ? lastPly() : ply);
      root.dataset.live = String(data.live);
      root.dataset.version = String(data.version);
      if (!data.live) window.location.reload();
    } finally {
      fetching = null;
    }
    // States that came while this fetch was out may be newer than what it brought.
    if (data.live && wantedVersion > data.version) refresh();
  })();
  return fetching;
}

function follow() {
  if (!data.live || !data.socket_path) return;
  new ReconnectingSocket(data.socket_path, {
    syncReply: "state",
    onStatus: (connection) => { root.dataset.socket = connection === "open" ? "open" : "closed"; },
    onMessage: (message) => {
      if (message.type !== "state") return;
      wantedVersion = Math.max(wantedVersion, message.version);
      if (message.version > data.version || message.status !== data.status) refresh();
    },
  });
}

buildMoveList();
go(plyFromLocation(), { keepHash: true });
showAnalysis();
root.dataset.ready = "true";
follow();
setTimeout(pollAnalysis, analysisPollDelay);
