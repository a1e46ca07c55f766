// The lobby socket (/ws/lobby/): reconnects with backoff and follows the player to a new
// match when the server says they were paired (in any tab or process).
export function connectLobby(config, handlers) {
  let socket = null;
  let delayMs = 500;
  let closedOnPurpose = false;
  const pending = []; // sent before the socket opened: delivered once it is

  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${config.socketPath}`);
    socket.addEventListener("open", () => {
      delayMs = 500;
      handlers.open?.();
      while (pending.length) socket.send(pending.shift());
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "paired") {
        handlers.paired?.(message);
        closedOnPurpose = true;
        location.assign(message.url);
        return;
      }
      handlers[message.type]?.(message);
    });
    socket.addEventListener("close", () => {
      if (closedOnPurpose) return;
      handlers.closed?.();
      setTimeout(open, delayMs);
      delayMs = Math.min(delayMs * 2, 10000);
    });
  }

  open();
  return {
    send(message) {
      const text = JSON.stringify(message);
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(text);
      else pending.push(text);
    },
  };
}

export function readConfig() {
  const element = document.getElementById("lobby-config");
  return element ? JSON.parse(element.textContent) : null;
}
