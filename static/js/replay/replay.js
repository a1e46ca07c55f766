// The replay page: steps through the positions the server computed; the game page's board
// (static/js/game/board.js) draws each one, so a replay looks like the game itself.
// Buttons, ←/→, Home/End, clicking a move, autoplay with a speed, #N or ?ply=N links, and,
// for a game still being played, the match socket: each new state makes the page fetch the
// replay data again (one cached computation per version on the server).

import { Board } from "../game/board.js";
import { moveHtml } from "../game/cards.js";
import { numberFormat } from "../game/numbers.js";
import { boardState, movedCards } from "./positions.js";
import { ReconnectingSocket } from "../socket.js";

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
    text.innerHTML = moveHtml(position.move);
    button.append(number, text, who);
    if (position.spent !== null && position.spent !== undefined) {
      const spent = document.createElement("span");
      spent.className = "move-spent";
      spent.textContent = formatSpent(position.spent);
      button.append(spent);
    }
    const mark = data.marks && data.marks[String(i)];
    if (mark) {
      button.classList.add("marked");
      const flag = document.createElement("span");
      flag.className = "move-mark";
      flag.dataset.testid = `mark-${i}`;
      flag.title = labels.mark;
      flag.textContent = "!";
      button.append(flag);
      button.title = labels.mark;
    }
    button.addEventListener("click", () => go(i));
    item.append(button);
    list.append(item);
  });
  scrub.max = String(lastPly());
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
    move.innerHTML = moveHtml(position.move);
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
  if (mark) {
    const note = document.createElement("p");
    note.className = "status-mark";
    note.dataset.testid = "status-mark";
    note.textContent = labels.mark;
    const words = labels.value_words || {};
    if (mark.before !== undefined && mark.after !== undefined) {
      const seat = data.seats[position.seat];
      const detail = document.createElement("span");
      detail.className = "mark-detail";
      detail.textContent = `: ${fill(labels.mark_detail, {
        before: words[String(mark.before)] ?? mark.before,
        after: words[String(mark.after)] ?? mark.after,
        name: seat ? seat.name : "",
      })}`;
      note.append(detail);
    }
    status.append(note);
    if (mark.best && mark.best.length) {
      const best = document.createElement("p");
      best.className = "status-best";
      best.dataset.testid = "status-best";
      best.innerHTML = fill(labels.mark_best, { moves: mark.best.map(moveHtml).join(", ") });
      status.append(best);
    }
  }
}

function go(target, { keepHash = false } = {}) {
  if (!data.positions.length) return;
  ply = Math.max(0, Math.min(lastPly(), target));
  const position = data.positions[ply];
  boardVersion += 1;
  board.setState(boardState(data, ply, boardVersion));
  if (position.move && position.move.startsWith("+")) {
    const hand = boardRoot.querySelector(`[data-testid=hand-${position.seat}]`);
    for (const card of movedCards(data, ply)) {
      const node = hand && hand.querySelector(`[data-card="${card}"]`);
      if (node) node.classList.add("just-taken");
    }
  }
  showStatus(position);
  root.dataset.ply = String(ply);
  scrub.value = String(ply);
  for (const button of list.querySelectorAll("button.move")) {
    const current = Number(button.dataset.ply) === ply;
    button.classList.toggle("current", current);
    if (current) {
      button.setAttribute("aria-current", "step");
      button.scrollIntoView({ block: "nearest" });
    } else {
      button.removeAttribute("aria-current");
    }
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
  if (analysisNote.hidden) return;
  analysisNote.dataset.status = analysis.status;
  if (analysis.status === "pending") {
    analysisNote.textContent = labels.analysis_pending;
    return;
  }
  const marked = Object.keys(data.marks || {}).length;
  const parts = [marked ? labels.analysis_count : labels.analysis_clean];
  if (analysis.reached_from) parts.push(fill(labels.analysis_from, { ply: analysis.reached_from }));
  else parts.push(labels.analysis_partial);
  analysisNote.textContent = parts.join(" ");
}

let analysisPolls = 0;
async function pollAnalysis() {
  if (!data.analysis || data.analysis.status !== "pending" || !data.data_url || analysisPolls > 60) return;
  analysisPolls += 1;
  try {
    const response = await fetch(data.data_url, { headers: { Accept: "application/json" } });
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
  setTimeout(pollAnalysis, 5000);
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
setTimeout(pollAnalysis, 3000);
