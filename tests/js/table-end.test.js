// A table's draw offer and its end, as the server states them: the offer names who made it,
// asks the seats whose answer it waits for and tells them who else must answer; at the end
// each player reads their own result (their seat's, with their place when they did not lose).
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { BOARD_HTML, installPage } from "./support/page.js";
import { LABELS, tableState } from "./support/states.js";

const { Board } = await import("../../static/js/game/board.js");

let document;
let sent;

const timed = new WeakSet();

function board(t) {
  if (!timed.has(t)) t.mock.timers.enable({ apis: ["setInterval"] });
  timed.add(t);
  sent = [];
  return new Board(document.getElementById("game"), {
    labels: { ...LABELS, reasons: REASONS, aiFor: "AI for {name}" }, matchUrl: "/game/{id}/", replayUrl: "", send: (message) => sent.push(message),
  });
}

const REASONS = { agreement: "Draw by agreement", normal: "Cards played out" };
const testid = (id) => document.querySelector(`[data-testid=${id}]`);
const names = [{ name: "anna" }, { name: "boris" }, { name: "vera" }, { name: "gleb" }];

beforeEach(() => { document = installPage(BOARD_HTML); });

test("a seat the offer waits for may accept or decline, and is told who else must answer", (t) => {
  const b = board(t);
  b.setState(tableState({
    n: 4, you: 1, toMove: 2, drawOffer: 0, drawAgreed: [0, 3], drawAwaited: [1, 2], seats: names,
  }));
  assert.equal(document.querySelector("[data-part=actions] .offer").textContent, "anna offers a draw");
  assert.equal(testid("draw-waiting").textContent, "Still to answer: vera");
  testid("draw-accept").click();
  testid("draw-decline").click();
  assert.deepEqual(sent, [{ type: "draw_accept" }, { type: "draw_decline" }]);
});

test("a seat that agreed waits, and sees whose answer is missing", (t) => {
  const b = board(t);
  b.setState(tableState({
    n: 4, you: 3, toMove: 2, drawOffer: 0, drawAgreed: [0, 3], drawAwaited: [1, 2], seats: names,
  }));
  assert.equal(testid("draw-accept"), null);
  assert.equal(testid("draw-offered").textContent, "You accepted the draw");
  assert.ok(testid("draw-offered").disabled);
  assert.equal(testid("draw-waiting").textContent, "Still to answer: boris and vera");
});

test("with no offer standing a player may offer one where the server allows it", (t) => {
  const b = board(t);
  b.setState(tableState({ n: 3, you: 0, toMove: 1, seats: names }));
  testid("draw-offer").click();
  assert.deepEqual(sent, [{ type: "draw_offer" }]);
  b.setState({ ...tableState({ n: 3, you: 0, toMove: 1, canOfferDraw: false }), version: 9 });
  assert.equal(testid("draw-offer"), null);
});

function finished(you, seats, result) {
  return tableState({ n: 4, you, status: "finished", known: [[], [], [], []], hidden: [0, 0, 0, 0],
    seats, result });
}

const DECIDED = { result: "decided", loser: 2, termination: "normal", reason: "Cards played out" };

test("at the end of a table each player reads their own result and place", (t) => {
  const seats = [{ place: 2, result: "win" }, { place: 1, result: "win" }, { place: 4, result: "loss" },
    { place: 3, result: "win" }];
  const cases = [[0, "You won: place 2", "won"], [1, "You won: place 1", "won"], [2, "You lost", "lost"],
    [3, "You won: place 3", "won"]];
  for (const [you, title, outcome] of cases) {
    const b = board(t);
    b.setState(finished(you, seats, DECIDED));
    assert.equal(testid("result-title").textContent, title);
    assert.equal(document.querySelector("[data-part=result]").dataset.outcome, outcome);
    document = installPage(BOARD_HTML);
  }
});

test("a player who left the table reads the loss of a resignation, whatever the AI's place", (t) => {
  const b = board(t);
  b.setState(finished(1, [{ place: 2, result: "win" }, { place: 1, result: "loss", taken_over: true, taken_over_ply: 6 },
    { place: 4, result: "loss" }, { place: 3, result: "win" }], DECIDED));
  assert.equal(testid("result-title").textContent, "You lost");
  assert.equal(testid("taken-over").textContent, "You left the table: the AI played your seat from move 7.");
});

test("a player back at a table the AI plays for them sees their hand but no turn and no acts", (t) => {
  const b = board(t);
  b.setState(tableState({ n: 3, you: 1, toMove: 1, legal: [], seats: [{}, { taken_over: true, taken_over_ply: 0 }] }));
  assert.equal(testid("taken-over").textContent, "You left the table: the AI played your seat from move 1.");
  assert.equal(testid("resign"), null);
  assert.equal(document.querySelector("[data-part=status]").textContent, "AI for You is thinking");
});

test("a table drawn by agreement reads a draw to everyone who played it", (t) => {
  const drawn = { result: "draw", loser: null, termination: "agreement", reason: "Draw by agreement" };
  const seats = [{ place: 1, result: "draw" }, { place: 2, result: "draw" }, { place: 2, result: "draw" },
    { place: 2, result: "draw" }];
  for (const you of [0, 2]) {
    const b = board(t);
    b.setState(finished(you, seats, drawn));
    assert.equal(testid("result-title").textContent, "Draw");
    assert.equal(testid("result-reason").textContent, "Draw by agreement");
    document = installPage(BOARD_HTML);
  }
});

test("a table's rematch waits for every person: who agreed waits, who has not is asked", (t) => {
  const seats = [{ place: 2, result: "win", name: "anna" }, { place: 1, result: "win", name: "boris" },
    { place: 4, result: "loss", name: "vera" }, { place: 3, result: "win", name: "gleb", taken_over: true, taken_over_ply: 3 }];
  const offer = { rematch_offer: 0, rematch_agreed: [0, 1], rematch_awaited: [2, 3] };
  let b = board(t);
  b.setState({ ...finished(1, seats, DECIDED), ...offer });
  assert.equal(testid("rematch").disabled, true);
  assert.equal(testid("rematch-waiting").textContent, "Still to answer: vera and gleb");
  document = installPage(BOARD_HTML);
  b = board(t);
  b.setState({ ...finished(2, seats, DECIDED), ...offer });
  assert.equal(document.querySelector("[data-part=actions] .offer").textContent, "anna wants a rematch");
  testid("rematch").click();
  assert.deepEqual(sent, [{ type: "rematch" }]);
  assert.equal(testid("rematch-waiting").textContent, "Still to answer: gleb");
});
