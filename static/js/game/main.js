// The game page: connects the board to the match socket, keeps to the latest version, and
// asks for the full state whenever it may have missed something.

import { Board } from "./board.js";
import { ReconnectingSocket } from "./socket.js";

const config = JSON.parse(document.getElementById("board-config").textContent);
const root = document.getElementById("game");
let socket = null;

const board = new Board(root, {
  labels: config.labels,
  matchUrl: config.matchUrl,
  replayUrl: config.replayUrl,
  send: (message) => socket.send(message),
});

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

socket = new ReconnectingSocket(config.socketPath, {
  onStatus: (status) => board.setConnection(status),
  onMessage: (message) => {
    if (message.type === "state") {
      board.setState(message);
    } else if (message.type === "ok") {
      expectVersion(message.version);
    } else if (message.type === "error") {
      board.showError(message);
      expectVersion(message.version);
      if (message.code === "stale_ply" || message.code === "not_your_turn") socket.send({ type: "sync" });
      else if (board.state) board.render();
    }
  },
});

// While the other player (or the AI) is to move, look again now and then: whether they have
// left (and the claim countdown) changes without a move, and a deadline that has come (a flag,
// a late AI) is enforced at once.
setInterval(() => {
  const s = board.state;
  if (s && s.status === "playing" && board.isPlayer() && !board.isMyTurn()
      && document.visibilityState === "visible") socket.send({ type: "sync" });
}, 15_000);

// For tests and debugging: drop the connection as a network failure would.
window.yourTrumpsBoard = { board, drop: () => socket.drop() };
