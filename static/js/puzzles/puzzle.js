// The puzzle page: the game page's board (static/js/game/board.js) draws each position the
// server sends, with the legal moves in it. The player's move goes to the server with the
// moves before it; the server says right (and sends the defender's reply, shown after a
// pause), solved, or wrong (and sends the right move, played instead). "View the solution"
// steps through the whole line the server sends. No rule of the game is here.

import { Board } from "../game/board.js";
import { moveHtml } from "../game/cards.js";
import { el, fill } from "../dom.js";

const REPLY_DELAY_MS = 650;

const config = JSON.parse(document.getElementById("puzzle-config").textContent);
const labels = config.labels;
const page = document.querySelector("[data-testid=puzzle-page]");
const verdict = document.getElementById("puzzle-verdict");
const solutionButton = document.getElementById("puzzle-solution");
const controls = document.getElementById("solution-controls");
const solutionAt = document.getElementById("solution-at");

const played = []; // the player's moves so far: the server follows the line from them
let version = 0; // the board keeps to the newest version: every state shown is newer
let busy = false;
let queued = null; // a move chosen ahead (a premove) while the last answer is still shown
let solution = null; // the solution's states, once asked for
let step = 0;

const board = new Board(document.getElementById("puzzle-board"), {
  labels, matchUrl: "", replayUrl: "",
  send: (message) => { if (message.type === "move") sendMove(message.move); },
});
document.addEventListener("keydown", (event) => board.onHandKey(event));

function show(state) {
  version += 1;
  board.setState({ ...state, version });
}

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function line(text, testid) {
  const node = el("p", "verdict-line", text);
  if (testid) node.dataset.testid = testid;
  return node;
}

/** A sentence whose `{move}` and `{correct}` are moves, drawn with the cards' symbols. */
function lineWithMoves(template, moves) {
  const node = el("p", "verdict-line");
  for (const part of template.split(/(\{\w+\})/)) {
    const name = (part.match(/^\{(\w+)\}$/) || [])[1];
    if (name && moves[name]) {
      const move = el("span", "move-text");
      move.dataset.testid = `${name}-move`;
      move.dataset.move = moves[name];
      move.innerHTML = moveHtml(moves[name], labels);
      node.append(move);
    } else if (part) {
      node.append(part);
    }
  }
  return node;
}

function say(outcome, ...lines) {
  verdict.dataset.outcome = outcome;
  page.dataset.outcome = outcome;
  verdict.replaceChildren(...lines);
}

const over = () => ["solved", "failed"].includes(verdict.dataset.outcome);

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": page.dataset.csrf },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.error || labels.errorGeneric), { code: data.code });
  return data;
}

/** The puzzle's themes, which the server sends only once the play is over. */
function showThemes(themes) {
  const holder = document.getElementById("puzzle-themes");
  if (!holder || !themes || !themes.length) return;
  holder.replaceChildren(...themes.map((theme) => {
    const badge = el("span", "badge theme", theme);
    badge.dataset.testid = "puzzle-theme";
    return badge;
  }));
  holder.hidden = false;
}

/** What the end of the play did: the rating, or why it did not change, the streak; and
 * the themes, now that they give nothing away. */
function showEnd(end) {
  if (!end) return;
  showThemes(end.themes);
  if (end.first && end.rating !== null) {
    const delta = end.delta >= 0 ? `+${end.delta}` : `\u2212${-end.delta}`;
    verdict.append(line(fill(labels.rating, { rating: end.rating, delta }), "rating-change"));
  } else if (!config.rated) {
    verdict.append(line(labels.guest, "unrated"));
  } else if (!end.first) {
    verdict.append(line(labels.notRatedAgain, "not-rated-again"));
  }
  if (end.streak) {
    for (const [key, value] of Object.entries(end.streak)) {
      const count = page.querySelector(`[data-testid=streak-${key}]`);
      if (count) count.textContent = String(value);
    }
    verdict.append(line(fill(end.solved ? labels.streakNext : labels.streakOver, end.streak), "streak-said"));
  }
}

async function sendMove(move) {
  if (over()) return;
  if (busy) { queued = move; return; }
  busy = true;
  try {
    const data = await post(config.moveUrl, { moves: [...played, move].join(" ") });
    played.push(move);
    if (data.outcome === "failed") {
      say("failed", lineWithMoves(labels.wrong, { move: data.wrong, correct: data.correct }),
        line(labels.failed, "failed"));
    } else if (data.outcome === "playing") {
      say("right", line(labels.right, "right"));
    }
    for (const [i, state] of data.states.entries()) {
      if (i) await wait(REPLY_DELAY_MS);
      show(state);
    }
    if (data.outcome === "playing") say("right", line(labels.rightAgain, "right"));
    if (data.outcome === "solved") say("solved", line(labels.solved, "solved"));
    showEnd(data.end);
  } catch (error) {
    board.showError({ code: error.code || "error", detail: error.message });
    board.render(); // the cards the refused move disabled are enabled again
  } finally {
    busy = false;
  }
  if (queued) {
    const next = queued;
    queued = null;
    sendMove(next);
  }
}

function goSolution(at) {
  step = Math.max(0, Math.min(solution.length - 1, at));
  show(solution[step]);
  solutionAt.textContent = step ? fill(labels.solutionAt, { ply: step, total: solution.length - 1 })
    : labels.solutionStart;
  controls.querySelector("[data-step='-1']").disabled = step === 0;
  controls.querySelector("[data-step='1']").disabled = step === solution.length - 1;
}

solutionButton.addEventListener("click", async () => {
  if (busy) return;
  busy = true;
  try {
    const data = await post(config.solutionUrl, {});
    solution = data.states;
    if (!over()) {
      say("failed", line(labels.failed, "failed"));
      showEnd(data.end);
    }
    controls.hidden = false;
    solutionButton.hidden = true;
    goSolution(0);
  } catch (error) {
    board.showError({ code: error.code || "error", detail: error.message });
  } finally {
    busy = false;
  }
});

controls.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-step]");
  if (button && solution) goSolution(step + Number(button.dataset.step));
});

show(config.state);
