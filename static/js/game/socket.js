// A WebSocket that reconnects by itself (with backoff) and reports its state.

export class ReconnectingSocket {
  constructor(path, { onMessage, onStatus }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 250;
    this.closed = false;
    this.queue = [];
    this.connect();
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  connect() {
    this.onStatus(this.everOpened ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.everOpened = true;
      this.delay = 250;
      this.onStatus("open");
      for (const message of this.queue.splice(0)) ws.send(message);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.closed) return;
      this.onStatus("reconnecting");
      clearTimeout(this.timer);
      // Jitter spreads the clients of a restarted server over the delay, so they do not all
      // come back in the same instant (a reconnect storm).
      this.timer = setTimeout(() => this.connect(), this.delay * (0.5 + Math.random() / 2));
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  reconnectNow() {
    if (this.closed || !this.ws || this.ws.readyState <= WebSocket.OPEN) return;
    clearTimeout(this.timer);
    this.connect();
  }

  /** Send now if open, else on the next connection (a move made meanwhile carries its ply,
   *  so the server refuses it as stale if the game has moved on). */
  send(message) {
    const text = JSON.stringify(message);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (!this.queue.includes(text)) this.queue.push(text);
  }

  /** Drop the connection as a network failure would (used by tests and debugging). */
  drop() { if (this.ws) this.ws.close(); }
}
