// The lobby socket (/ws/lobby/): the site's reconnecting socket (static/js/socket.js) with the
// lobby's messages, following the player to a new match when the server says they were
// paired (in any tab or process).
import { ReconnectingSocket } from "../socket.js";

/** Connect; `handlers` has a function per message type the page wants (`lobby`, `pools`,
 *  `ok`, `error`, `paired`) and `status(status, detail)` for the socket's status. */
export function connectLobby(config, handlers) {
  const socket = new ReconnectingSocket(config.socketPath, {
    syncReply: "lobby",
    ping: { type: "sync" },
    onStatus: (status, detail) => handlers.status?.(status, detail),
    onMessage: (message) => {
      if (message.type === "paired") {
        handlers.paired?.(message);
        socket.close();
        location.assign(message.url);
        return;
      }
      handlers[message.type]?.(message);
    },
  });
  return socket;
}

export function readConfig() {
  const element = document.getElementById("lobby-config");
  return element ? JSON.parse(element.textContent) : null;
}
