// A fake of what static/js/socket.js takes from the page (`environment`): WebSocket, the
// timers (node's mock timers, enabled by the test), `location`, the window's and the
// document's events. The fake socket plays the server's side too: accept, reply, close.

export function fakeEnvironment({ protocol = "http:" } = {}) {
  const sockets = [];
  const windowListeners = {};
  const documentListeners = {};

  class FakeWebSocket {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSING = 2;
    static CLOSED = 3;

    constructor(url) {
      this.url = url;
      this.readyState = FakeWebSocket.CONNECTING;
      this.sent = [];
      this.listeners = {};
      this.closedWith = null;
      sockets.push(this);
    }

    addEventListener(type, listener) { (this.listeners[type] ??= []).push(listener); }

    emit(type, event = {}) { for (const listener of this.listeners[type] ?? []) listener(event); }

    send(text) {
      if (this.readyState !== FakeWebSocket.OPEN) throw new Error("send on a socket that is not open");
      this.sent.push(JSON.parse(text));
    }

    close(code = 1005, reason = "") {
      this.closedWith = { code, reason };
      this.readyState = FakeWebSocket.CLOSING;
    }

    // --- the server's side ---
    accept() {
      this.readyState = FakeWebSocket.OPEN;
      this.emit("open");
    }

    reply(message) { this.emit("message", { data: JSON.stringify(message) }); }

    serverClose(code, wasClean = true) {
      this.readyState = FakeWebSocket.CLOSED;
      this.emit("close", { code, wasClean });
    }

    /** The connection breaks: no close frame (what the browser reports as 1006). */
    breakOff() { this.serverClose(1006, false); }
  }

  const environment = {
    WebSocket: FakeWebSocket,
    setTimeout: (action, ms) => setTimeout(action, ms),
    clearTimeout: (id) => clearTimeout(id),
    location: { protocol, host: "cards.example" },
    addEventListener: (type, listener) => { (windowListeners[type] ??= []).push(listener); },
    document: {
      visibilityState: "visible",
      addEventListener: (type, listener) => { (documentListeners[type] ??= []).push(listener); },
    },
  };

  return {
    environment,
    sockets,
    get last() { return sockets[sockets.length - 1]; },
    fireWindow(type) { for (const listener of windowListeners[type] ?? []) listener({}); },
    setVisibility(state) {
      environment.document.visibilityState = state;
      for (const listener of documentListeners.visibilitychange ?? []) listener({});
    },
  };
}
