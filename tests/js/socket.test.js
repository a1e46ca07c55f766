// The one reconnecting socket (static/js/socket.js): backoff, status, the queue, the
// resend of moves in flight, and the detection of a connection that broke quietly.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { answers, backoffDelay, ReconnectingSocket, socketUrl } from "../../static/js/socket.js";
import { fakeEnvironment } from "./support/fake-environment.js";

const TIMING = { baseDelayMs: 100, maxDelayMs: 1000, answerTimeoutMs: 3000, openTimeoutMs: 5000, stableAfterMs: 2000 };
const carriesPly = (message) => Number.isInteger(message.ply);

/** A socket on a fake page; `statuses` and `received` record what the page was told. */
function open(t, options = {}) {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  t.mock.method(Math, "random", () => 0.5);
  const page = fakeEnvironment(options.page);
  const statuses = [];
  const received = [];
  const socket = new ReconnectingSocket("/ws/match/7/", {
    ...TIMING,
    syncReply: "state",
    ping: { type: "sync" },
    resendable: carriesPly,
    environment: page.environment,
    onStatus: (status, detail) => statuses.push([status, detail]),
    onMessage: (message, answered) => received.push([message, answered]),
    ...options.socket,
  });
  return { page, socket, statuses, received, tick: (ms) => t.mock.timers.tick(ms) };
}

describe("backoffDelay", () => {
  test("is full jitter: anywhere from 0 to the exponential bound", () => {
    const timing = { baseDelayMs: 250, maxDelayMs: 5000 };
    assert.equal(backoffDelay(0, timing, () => 0), 0);
    assert.equal(backoffDelay(0, timing, () => 0.999), 249);
    assert.equal(backoffDelay(3, timing, () => 0.5), 1000);
  });

  test("grows by doubling and never passes the cap", () => {
    const timing = { baseDelayMs: 250, maxDelayMs: 5000 };
    const highest = [0, 1, 2, 3, 4, 5, 10, 40].map((n) => backoffDelay(n, timing, () => 0.9999));
    assert.deepEqual(highest, [249, 499, 999, 1999, 3999, 4999, 4999, 4999]);
  });
});

describe("socketUrl", () => {
  test("follows the page's scheme", () => {
    assert.equal(socketUrl("/ws/lobby/", { protocol: "http:", host: "a.example:8000" }), "ws://a.example:8000/ws/lobby/");
    assert.equal(socketUrl("/ws/lobby/", { protocol: "https:", host: "a.example" }), "wss://a.example/ws/lobby/");
  });
});

describe("answers", () => {
  test("ok and error answer the type named in `for`", () => {
    assert.ok(answers({ type: "ok", for: "move" }, { type: "move" }, "state"));
    assert.ok(!answers({ type: "ok", for: "resign" }, { type: "move" }, "state"));
    assert.ok(answers({ type: "error", for: "move", code: "stale_ply" }, { type: "move" }, "state"));
  });

  test("an error about no type answers whatever was sent", () => {
    assert.ok(answers({ type: "error", for: null, code: "bad_message" }, { type: "seek_create" }, "lobby"));
  });

  test("a sync is answered by the page's full state only", () => {
    assert.ok(answers({ type: "state" }, { type: "sync" }, "state"));
    assert.ok(!answers({ type: "state" }, { type: "move" }, "state"));
    assert.ok(!answers({ type: "pools" }, { type: "sync" }, "lobby"));
    assert.ok(!answers({ type: "state" }, { type: "sync" }, null));
  });
});

describe("ReconnectingSocket", () => {
  let run;

  describe("connecting", () => {
    test("says connecting, then open, on the page's host", (t) => {
      run = open(t, { page: { protocol: "https:" } });
      assert.equal(run.page.last.url, "wss://cards.example/ws/match/7/");
      assert.deepEqual(run.statuses.map(([s]) => s), ["connecting"]);
      run.page.last.accept();
      assert.deepEqual(run.statuses.map(([s]) => s), ["connecting", "open"]);
    });

    test("gives up on a connection that does not open in time and tries again", (t) => {
      run = open(t);
      run.tick(TIMING.openTimeoutMs);
      assert.equal(run.page.sockets[0].closedWith.code, 4000);
      assert.equal(run.statuses.at(-1)[0], "failed");
      run.tick(TIMING.baseDelayMs);
      assert.equal(run.page.sockets.length, 2);
    });
  });

  describe("while closed", () => {
    beforeEach(() => { run = null; });

    test("what is sent waits, in order and once, then goes out when open", (t) => {
      run = open(t);
      run.socket.send({ type: "sync" });
      run.socket.send({ type: "move", move: "7C", ply: 0 });
      run.socket.send({ type: "sync" });
      run.page.last.accept();
      assert.deepEqual(run.page.last.sent, [{ type: "sync" }, { type: "move", move: "7C", ply: 0 }]);
    });

    test("a message parsed badly is ignored, the next one is read", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.last.emit("message", { data: "{not json" });
      run.page.last.reply({ type: "state", version: 3 });
      assert.deepEqual(run.received.map(([m]) => m.type), ["state"]);
    });
  });

  describe("after a close", () => {
    test("a clean close reconnects after a jittered backoff, saying reconnecting", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.last.serverClose(1001);
      const [status, detail] = run.statuses.at(-1);
      assert.equal(status, "reconnecting");
      assert.equal(detail.delayMs, 50); // random 0.5 of the first bound, 100 ms
      run.tick(49);
      assert.equal(run.page.sockets.length, 1);
      run.tick(1);
      assert.equal(run.page.sockets.length, 2);
      run.page.last.accept();
      assert.equal(run.statuses.at(-1)[0], "open");
    });

    test("a broken connection (no close frame) says failed, and is retried", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.last.breakOff();
      const [status, detail] = run.statuses.at(-1);
      assert.equal(status, "failed");
      assert.equal(detail.final, false);
      assert.equal(detail.code, 1006);
      run.tick(detail.delayMs);
      assert.equal(run.page.sockets.length, 2);
    });

    test("the wait doubles with each failed attempt until a connection works", (t) => {
      run = open(t);
      const delays = [];
      for (let i = 0; i < 6; i += 1) {
        run.page.last.breakOff();
        delays.push(run.statuses.at(-1)[1].delayMs);
        run.tick(delays.at(-1));
      }
      assert.deepEqual(delays, [50, 100, 200, 400, 500, 500]);
      run.page.last.accept();
      run.page.last.reply({ type: "state", version: 1 });
      run.page.last.breakOff();
      assert.equal(run.statuses.at(-1)[1].delayMs, 50);
    });

    test("a refusal for good (no such match) stops trying", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.last.serverClose(4404);
      assert.deepEqual(run.statuses.at(-1), ["failed", { code: 4404, delayMs: null, final: true }]);
      run.tick(60_000);
      run.page.setVisibility("visible");
      assert.equal(run.page.sockets.length, 1);
    });

    test("coming back into view or online connects at once", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.last.serverClose(1001);
      run.page.setVisibility("visible");
      assert.equal(run.page.sockets.length, 2);
      run.page.last.breakOff();
      run.page.fireWindow("online");
      assert.equal(run.page.sockets.length, 3);
      run.tick(60_000); // the retry that was planned does not open a fourth
      assert.equal(run.page.sockets.length, 3);
    });

    test("going offline gives the connection up at once", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.fireWindow("offline");
      assert.equal(run.page.sockets[0].closedWith.code, 4000);
      assert.equal(run.statuses.at(-1)[0], "failed");
    });
  });

  describe("moves in flight", () => {
    test("a move with no answer when the connection broke is sent again first, as a resend", (t) => {
      run = open(t);
      run.page.last.accept();
      const move = { type: "move", move: "QH-7D", ply: 4 };
      run.socket.send(move);
      run.socket.send({ type: "resign" }); // not safe to send twice: dropped with the connection
      run.page.last.breakOff();
      run.socket.send({ type: "sync" });
      run.tick(run.statuses.at(-1)[1].delayMs);
      run.page.last.accept();
      assert.deepEqual(run.page.last.sent, [move, { type: "sync" }]);
      run.page.last.reply({ type: "error", code: "stale_ply", for: "move", version: 9 });
      assert.deepEqual(run.received.at(-1)[1], { message: move, resent: true });
    });

    test("an answered move is not sent again", (t) => {
      run = open(t);
      run.page.last.accept();
      run.socket.send({ type: "move", move: "7C", ply: 0 });
      run.page.last.reply({ type: "ok", for: "move", version: 2 });
      assert.deepEqual(run.received.at(-1)[1], { message: { type: "move", move: "7C", ply: 0 }, resent: false });
      run.page.last.breakOff();
      run.tick(run.statuses.at(-1)[1].delayMs);
      run.page.last.accept();
      assert.deepEqual(run.page.last.sent, []);
    });

    test("answers are matched to the oldest message of their type", (t) => {
      run = open(t);
      run.page.last.accept();
      run.socket.send({ type: "sync" });
      run.socket.send({ type: "move", move: "7C", ply: 0 });
      run.page.last.reply({ type: "ok", for: "move", version: 2 });
      run.page.last.reply({ type: "state", version: 2 });
      assert.equal(run.received[0][1].message.type, "move");
      assert.equal(run.received[1][1].message.type, "sync");
    });
  });

  describe("a connection that looks open but is not", () => {
    test("no answer in time drops it, says failed, and the move goes out again", (t) => {
      run = open(t);
      run.page.last.accept();
      const move = { type: "move", move: "9H", ply: 2 };
      run.socket.send(move);
      run.tick(TIMING.answerTimeoutMs - 1);
      assert.equal(run.statuses.at(-1)[0], "open");
      run.tick(1);
      assert.equal(run.page.sockets[0].closedWith.code, 4000);
      assert.equal(run.statuses.at(-1)[0], "failed");
      run.tick(run.statuses.at(-1)[1].delayMs);
      run.page.last.accept();
      assert.deepEqual(run.page.last.sent, [move]);
      // Events of the connection given up on reach the page no more.
      run.page.sockets[0].reply({ type: "ok", for: "move" });
      assert.equal(run.received.length, 0);
    });

    test("an answer in time keeps it, and other traffic is no answer", (t) => {
      run = open(t);
      run.page.last.accept();
      run.socket.send({ type: "sync" });
      run.tick(TIMING.answerTimeoutMs - 10);
      run.page.last.reply({ type: "pools" }); // a broadcast: not the answer
      run.page.last.reply({ type: "state", version: 1 });
      run.tick(TIMING.answerTimeoutMs * 2);
      assert.equal(run.statuses.at(-1)[0], "open");
      assert.equal(run.page.sockets.length, 1);
    });

    test("coming back into view checks an open connection with the ping", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.setVisibility("hidden");
      run.page.setVisibility("visible");
      assert.deepEqual(run.page.last.sent, [{ type: "sync" }]);
      run.tick(TIMING.answerTimeoutMs);
      assert.equal(run.statuses.at(-1)[0], "failed");
    });
  });

  describe("a break and close", () => {
    test("a connection that breaks reconnects by itself, and what was sent meanwhile goes out", (t) => {
      run = open(t);
      run.page.last.accept();
      run.page.last.breakOff();
      run.socket.send({ type: "move", move: "7C", ply: 0 });
      run.tick(run.statuses.at(-1)[1].delayMs);
      run.page.last.accept();
      assert.deepEqual(run.page.last.sent, [{ type: "move", move: "7C", ply: 0 }]);
    });

    test("close() is for good", (t) => {
      run = open(t);
      run.page.last.accept();
      run.socket.close();
      assert.equal(run.page.sockets[0].closedWith.code, 1000);
      run.page.sockets[0].serverClose(1000);
      run.tick(60_000);
      run.page.fireWindow("online");
      assert.equal(run.page.sockets.length, 1);
    });
  });
});
