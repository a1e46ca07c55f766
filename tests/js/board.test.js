// The board draws what the server decided: the cards it enables come from the legal moves,
// the cards a take took from `last_move.taken` (and the take's words on the move list), the draw
// offer from `can_offer_draw`, the take button's words from `take_count`, and the socket's
// status in the side panel.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { BOARD_HTML, installPage } from "./support/page.js";
import { duelState, LABELS } from "./support/states.js";

const { Board } = await import("../../static/js/game/board.js");

let document;
let sent;

function board(t) {
  t.mock.timers.enable({ apis: ["setInterval"] }); // the clocks' tick
  sent = [];
  return new Board(document.getElementById("game"), {
    labels: LABELS, matchUrl: "/game/{id}/", replayUrl: "", send: (message) => sent.push(message),
  });
}

const enabled = () => [...document.querySelectorAll("[data-part=bottom] button.card:not([disabled])")]
  .map((node) => node.dataset.card);

beforeEach(() => { document = installPage(BOARD_HTML); });

test("only the cards that start a legal move are enabled, and a take is a button", (t) => {
  const b = board(t);
  b.setState(duelState({
    hands: [["7C", "8C", "KD", "AS"], ["9D"]], pile: ["6C"], takeCount: 1,
    legal: ["7C-8C", "7C-KD", "7C-AS", "AS-7C", "AS-8C", "AS-KD", "+1"],
  }));
  assert.deepEqual(enabled().sort(), ["7C", "AS"]);
  const take = document.querySelector("[data-testid=take]");
  assert.equal(take.textContent, "Take 1 cards");
  take.dispatchEvent(new document.defaultView.Event("click"));
  assert.deepEqual(sent, [{ type: "move", move: "+1", ply: 0 }]);
});

test("choosing a beater enables the cards that may follow it, then plays the pair", (t) => {
  const b = board(t);
  b.setState(duelState({ hands: [["7C", "8C", "KD"], ["9D"]], pile: ["6C"], legal: ["7C-8C", "7C-KD", "+1"] }));
  b.onCard("7C");
  assert.deepEqual(enabled().sort(), ["7C", "8C", "KD"]);
  b.onCard("KD");
  assert.deepEqual(sent, [{ type: "move", move: "7C-KD", ply: 0 }]);
  assert.deepEqual(enabled(), []); // nothing more until the server answers
});

test("the cards the last take took are marked in the taker's hand", (t) => {
  const b = board(t);
  b.setState(duelState({
    toMove: 1, hands: [["7C", "9D", "8C", "KD"], ["6D"]], pile: [],
    moves: [[0, "7C"], [1, "8C-KD"], [0, "+3"]],
    lastMove: { ply: 3, seat: 0, move: "+3", taken: ["7C", "8C", "KD"] },
  }));
  const marked = [...document.querySelectorAll("[data-testid=hand-0] .just-taken")].map((n) => n.dataset.card);
  assert.deepEqual(marked.sort(), ["7C", "8C", "KD"]);
  assert.equal(document.querySelectorAll("[data-testid=hand-1] .just-taken").length, 0);
  // The move list says the take in the board's words; its notation stays in the data.
  const listed = document.querySelector("[data-part=moves] li[data-move='+3'] .move-text");
  assert.equal(listed.textContent, "Take 3 cards");
});

test("a draw may be offered only where the server says so", (t) => {
  const b = board(t);
  b.setState(duelState({ canOfferDraw: true }));
  assert.ok(document.querySelector("[data-testid=draw-offer]"));
  b.setState({ ...duelState({ canOfferDraw: false }), version: 5 });
  assert.equal(document.querySelector("[data-testid=draw-offer]"), null);
});

test("an offer names the seat that made it", (t) => {
  const b = board(t);
  b.setState(duelState({ drawOffer: 1, seats: [{}, { name: "bob" }] }));
  assert.equal(document.querySelector("[data-part=actions] .offer").textContent, "bob offers a draw");
  assert.ok(document.querySelector("[data-testid=draw-accept]"));
});

test("the socket's status is said unless it is open", (t) => {
  const b = board(t);
  const box = document.querySelector("[data-part=connection]");
  b.setConnection("failed", { final: false });
  assert.equal(box.textContent, LABELS.connectionFailed);
  assert.ok(box.classList.contains("failed"));
  b.setConnection("failed", { final: true });
  assert.equal(box.textContent, LABELS.connectionFailedFinal);
  b.setConnection("reconnecting", {});
  assert.equal(box.textContent, LABELS.reconnecting);
  assert.ok(!box.classList.contains("failed"));
  b.setConnection("open", {});
  assert.equal(box.hidden, true);
  assert.equal(document.getElementById("game").dataset.connection, "open");
});
