// The one WebSocket client of every page (the game, the replay, the lobby, the announcements).
//
// - It reconnects by itself, after an exponential backoff with full jitter (a random delay
//   between 0 and base * 2^attempt, at most `maxDelayMs`), so that the clients of a restarted
//   server do not all come back in the same instant; at once when the page comes back into view
//   or the network returns.
// - It tells the page its status: "connecting" (the first time), "open", "reconnecting" (the
//   connection closed), "failed" (it broke without a proper close, or the server did not
//   answer in time, or the server refused the page for good: `detail.final`).
// - What is sent while it is closed waits in a queue and goes out once it is open again.
// - Every message sent waits for its answer (`ok` or `error` naming its type in `for`; for a
//   `sync`, the page's full state). One that gets none within `answerTimeoutMs` means the
//   connection is broken even if it looks open (the server drops a frame over its size limit
//   without closing, or a network path died silently): the socket is dropped and opened anew.
// - A message the page marks `resendable` (a move: it carries its ply, so the server applies
//   it at most once) is kept until its answer comes and sent again after a reconnect; the
//   page is told which message an answer answers, and whether that message was a resend.

const ABNORMAL_CLOSE = 1006; // closed without a close frame: the connection broke
const ABANDONED = 4000; // the code this client closes a connection with that it gave up on
// The server refused this socket for good (not logged in, not allowed, no such match):
// trying again cannot help.
const FINAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

/** The wait before reconnect attempt `attempt` (0 first): full jitter over the backoff. */
export function backoffDelay(attempt, { baseDelayMs, maxDelayMs }, random = Math.random) {
  return Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt));
}

/** The socket URL of a path on the page's own host (wss: on an https: page). */
export function socketUrl(path, location) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/** Whether `reply` answers `sent`, the oldest message of its kind still waiting: `ok` and
 *  `error` name the type they answer in `for` (an error with none, a message the server could
 *  not read, answers the oldest of all); a `sync` is answered by the page's full state. */
export function answers(reply, sent, syncReply) {
  if (reply.type === "ok" || reply.type === "error") {
    return reply.for === sent.type || (reply.type === "error" && reply.for == null);
  }
  return sent.type === "sync" && syncReply !== null && reply.type === syncReply;
}

export class ReconnectingSocket {
  /**
   * `path`: the socket's path on this host. Options:
   * `onMessage(message, answered)`: each message from the server, and the entry it answers
   *   (`{message, resent}`) or null;
   * `onStatus(status, detail)`: see above; `detail` has `code`, `delayMs` and `final`;
   * `syncReply`: the type of the message that answers a `{type: "sync"}` ("state", "lobby");
   * `ping`: a message to check an open connection with when the page comes back;
   * `resendable(message)`: whether a message may be sent again after a reconnect;
   * `baseDelayMs`, `maxDelayMs`, `answerTimeoutMs`, `openTimeoutMs`, `stableAfterMs`;
   * `environment`: where WebSocket, the timers, `location` and `document` come from
   *   (the page's `window`; tests pass a fake).
   */
  constructor(path, {
    onMessage = () => {},
    onStatus = () => {},
    syncReply = null,
    ping = null,
    resendable = () => false,
    baseDelayMs = 500,
    maxDelayMs = 10_000,
    answerTimeoutMs = 6000,
    openTimeoutMs = 10_000,
    stableAfterMs = 5000,
    environment = globalThis,
  } = {}) {
    this.env = environment;
    this.url = socketUrl(path, environment.location);
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.syncReply = syncReply;
    this.ping = ping;
    this.resendable = resendable;
    this.timing = { baseDelayMs, maxDelayMs, answerTimeoutMs, openTimeoutMs, stableAfterMs };
    this.ws = null;
    this.status = null;
    this.everOpened = false;
    this.stopped = false;
    this.attempt = 0; // losses since the last connection that worked
    this.queue = []; // entries {message, text, resent} waiting for an open connection
    this.inFlight = []; // entries sent on the open connection, waiting for their answer
    this.timers = {};
    environment.addEventListener("online", () => this.reconnectNow());
    environment.addEventListener("offline", () => this.abandon("offline"));
    environment.document.addEventListener("visibilitychange", () => {
      if (environment.document.visibilityState === "visible") this.reconnectNow();
    });
    this.connect();
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === this.env.WebSocket.OPEN;
  }

  // --- the connection ---------------------------------------------------------------------

  connect() {
    this.clearTimer("retry");
    if (!this.everOpened && this.status === null) this.setStatus("connecting");
    const ws = new this.env.WebSocket(this.url);
    this.ws = ws;
    this.startTimer("open", this.timing.openTimeoutMs, () => this.abandon("no answer", ws));
    ws.addEventListener("open", () => { if (this.ws === ws) this.opened(); });
    ws.addEventListener("message", (event) => { if (this.ws === ws) this.received(event.data); });
    ws.addEventListener("close", (event) => { if (this.ws === ws) this.closed(event); });
  }

  opened() {
    this.clearTimer("open");
    this.everOpened = true;
    // A connection that stays up a while has worked: the next loss starts the backoff over.
    this.startTimer("stable", this.timing.stableAfterMs, () => { this.attempt = 0; });
    this.setStatus("open");
    for (const entry of this.queue.splice(0)) this.transmit(entry);
  }

  received(data) {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    this.attempt = 0; // the server's application answered: it works
    const index = this.inFlight.findIndex((entry) => answers(message, entry.message, this.syncReply));
    const answered = index >= 0 ? this.inFlight.splice(index, 1)[0] : null;
    if (answered) {
      this.clearTimer("answer");
      if (this.inFlight.length) this.armAnswerTimer();
    }
    this.onMessage(message, answered ? { message: answered.message, resent: answered.resent } : null);
  }

  closed(event) {
    const final = FINAL_CLOSE_CODES.has(event.code);
    this.lost({ failed: final || event.code === ABNORMAL_CLOSE || !event.wasClean, final, code: event.code });
  }

  /** Give up on the current connection (`ws`, if given, must still be it) as broken. */
  abandon(reason, ws = this.ws) {
    if (ws === null || ws !== this.ws || this.stopped) return;
    this.ws = null;
    try { ws.close(ABANDONED, reason); } catch { /* already closing */ }
    this.lost({ failed: true, final: false, code: null });
  }

  /** The connection is gone: keep what may be sent again, and try again after a while. */
  lost({ failed, final, code }) {
    this.ws = null;
    for (const name of ["open", "answer", "stable"]) this.clearTimer(name);
    const again = this.inFlight.filter((entry) => this.resendable(entry.message))
      .map((entry) => ({ ...entry, resent: true }));
    this.inFlight = [];
    this.queue = [...again, ...this.queue.filter((entry) => !again.some((e) => e.text === entry.text))];
    if (final || this.stopped) {
      this.stopped = true;
      this.setStatus("failed", { code, delayMs: null, final: true });
      return;
    }
    const delayMs = backoffDelay(this.attempt, this.timing);
    this.attempt += 1;
    this.setStatus(failed ? "failed" : "reconnecting", { code, delayMs, final: false });
    this.startTimer("retry", delayMs, () => this.connect());
  }

  /** Back in view or back online: connect now if waiting to, or check an open connection. */
  reconnectNow() {
    if (this.stopped) return;
    if (this.ws === null) {
      this.connect();
    } else if (this.isOpen && this.ping) {
      this.send(this.ping);
    }
  }

  // --- sending ----------------------------------------------------------------------------

  /** Send now if open, else once it is (a message already waiting is not queued twice). */
  send(message) {
    const entry = { message, text: JSON.stringify(message), resent: false };
    if (this.isOpen) this.transmit(entry);
    else if (!this.queue.some((waiting) => waiting.text === entry.text)) this.queue.push(entry);
  }

  transmit(entry) {
    this.ws.send(entry.text);
    this.inFlight.push(entry);
    if (this.inFlight.length === 1) this.armAnswerTimer();
  }

  armAnswerTimer() {
    this.startTimer("answer", this.timing.answerTimeoutMs, () => this.abandon("no answer"));
  }

  /** Close for good (the page is leaving). */
  close() {
    this.stopped = true;
    for (const name of Object.keys(this.timers)) this.clearTimer(name);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000);
  }

  // --- small parts ------------------------------------------------------------------------

  setStatus(status, detail = { code: null, delayMs: null, final: false }) {
    this.status = status;
    this.onStatus(status, detail);
  }

  startTimer(name, ms, action) {
    this.clearTimer(name);
    this.timers[name] = this.env.setTimeout(() => { delete this.timers[name]; action(); }, ms);
  }

  clearTimer(name) {
    if (this.timers[name] !== undefined) this.env.clearTimeout(this.timers[name]);
    delete this.timers[name];
  }
}
