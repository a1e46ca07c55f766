// The game page: connects the board to the match socket, keeps to the latest version, and
// asks for the full state whenever it may have missed something.

import { ReconnectingSocket } from "../socket.js";
import { carriesPly, playedAlready } from "./acts.js";
import { Board } from "./board.js";
import { playSound, setSoundVolume, soundVolume } from "../sound.js";
import { showCorrespondence } from "./correspondence.js";
import { Chat } from "../chat/chat.js";

const config = JSON.parse(document.getElementById("board-config").textContent);
const root = document.getElementById("game");
let socket = null;
const chatPanel = document.querySelector("[data-part=chat]");
const chat = chatPanel ? new Chat(chatPanel, (message) => socket.send(message)) : null;

const board = new Board(root, {
  labels: config.labels,
  matchUrl: config.matchUrl,
  replayUrl: config.replayUrl,
  send: (message) => socket.send(message),
  sounds: true,
});

// The volume of the game's sounds (0 mutes), kept by this browser.
const volume = document.getElementById("sound-volume");
if (volume) {
  volume.value = String(soundVolume());
  volume.addEventListener("change", () => {
    volume.value = String(setSoundVolume(volume.value));
    playSound("move");
  });
}

// The hand's keys work wherever the focus is on the page (but in a field or a dialog).
document.addEventListener("keydown", (event) => board.onHandKey(event));

let syncTimer = null;
function expectVersion(version) {
  // A reply names a version the board has not seen yet: if its state does not follow
  // shortly (a dropped broadcast), ask for the full state.
  if (version === null || version === undefined || version <= board.version) return;
  clearTimeout(syncTimer);
  syncTimer = setTimeout(() => {
    if (board.version < version) socket.send({ type: "sync" });
  }, 700);
}

// A move sent again after a reconnect is refused as stale when the server had applied it
// before the connection broke: that is no error. Which it was, the state of the refusal's
// version tells (it follows the refusal if the board has not seen it yet).
let staleResend = null;
function settleStaleResend() {
  if (!staleResend || board.version < staleResend.version) return;
  const { error, sent } = staleResend;
  staleResend = null;
  if (!playedAlready(board.state, sent)) board.showError(error);
}

function onError(message, answered) {
  if (message.code === "stale_ply" && answered && answered.resent) {
    staleResend = { error: message, sent: answered.message, version: message.version ?? board.version };
    settleStaleResend();
    expectVersion(message.version);
    return;
  }
  board.showError(message);
  expectVersion(message.version);
  if (message.code === "stale_ply" || message.code === "not_your_turn") socket.send({ type: "sync" });
  else if (board.state) board.render();
}

socket = new ReconnectingSocket(config.socketPath, {
  syncReply: "state",
  ping: { type: "sync" },
  resendable: carriesPly,
  baseDelayMs: 250,
  maxDelayMs: 5000,
  onStatus: (status, detail) => {
    board.setConnection(status, detail);
    if (status === "open") {
      focusSent = false; // a new connection starts out of focus on the server
      sendFocus();
    }
  },
  onMessage: (message, answered) => {
    if (message.type === "state") {
      const previous = board.state;
      board.setState(message);
      followRematch(previous, message);
      correspondence();
      settleStaleResend();
    } else if (message.type === "ok") {
      expectVersion(message.version);
    } else if (message.type === "error" && message.for === "chat") {
      chat?.refused(message);
    } else if (message.type === "error") {
      onError(message, answered);
    } else if (message.type === "chat_history" || message.type === "chat") {
      chat?.receive(message);
    }
  },
});

// The page leaves for another only here, on the server's word: when the rematch its players
// agreed to has been made, they go on to it (a spectator is offered the link instead).
function followRematch(previous, next) {
  if (previous && previous.rematch_id == null && next.rematch_id != null && next.you !== null) {
    location.assign(config.matchUrl.replace("{id}", next.rematch_id));
  }
}

// Whether this page is in view and focused, said to the server whenever it changes: while it
// is, its player sees their turns come and is not notified of them (docs/notifications.md).
let focusSent = false;
function sendFocus() {
  const focused = document.visibilityState === "visible" && document.hasFocus();
  if (focused === focusSent) return;
  focusSent = focused;
  socket.send({ type: "focus", focused });
}
for (const name of ["focus", "blur"]) window.addEventListener(name, sendFocus);
document.addEventListener("visibilitychange", sendFocus);

// While the other player (or the AI) is to move, look again now and then: whether they have
// left (and the claim countdown) changes without a move, and a deadline that has come (a flag,
// a late AI) is enforced at once. An unanswered look also tells a connection that died quietly.
setInterval(() => {
  const s = board.state;
  if (s && s.status === "playing" && board.isPlayer() && !board.isMyTurn()
      && document.visibilityState === "visible") socket.send({ type: "sync" });
}, 15_000);

// A correspondence game says in words how long the player to act has, and leads on to the
// next game waiting once the viewer has moved.
const correspondencePart = document.querySelector("[data-part=correspondence]");
const deadlineLine = document.querySelector("[data-part=deadline]");
function correspondence() {
  showCorrespondence(correspondencePart, deadlineLine, board.state, config.labels, board.nowServer());
}
if (correspondencePart) setInterval(correspondence, 1000);
