// The seats around a table of 3 or 4: each opponent on its side, with the cards of theirs the
// state shows face up and the rest as backs, its trump, hand size, clock, presence and place;
// the viewer's own hand at the bottom; a spectator with seat 0 at the bottom and no card to play.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { BOARD_HTML, installPage } from "./support/page.js";
import { LABELS, tableState } from "./support/states.js";

const { Board } = await import("../../static/js/game/board.js");

let document;
let sent;

function board(t) {
  t.mock.timers.enable({ apis: ["setInterval"] });
  sent = [];
  return new Board(document.getElementById("game"), {
    labels: LABELS, matchUrl: "/game/{id}/", replayUrl: "", send: (message) => sent.push(message),
  });
}

const part = (name) => document.querySelector(`[data-part=${name}]`);
const seatIn = (name) => part(name).querySelector(".seat")?.dataset.seat;
const faceUp = (index) => [...document.querySelectorAll(`[data-testid=hand-${index}] .card[data-card]`)]
  .map((node) => node.dataset.card);
const backs = (index) => document.querySelectorAll(`[data-testid=hand-${index}] .card.back`).length;

beforeEach(() => { document = installPage(BOARD_HTML); });

test("at four, seat 2 sees seat 3 on its left, seat 0 across and seat 1 on its right", (t) => {
  const b = board(t);
  b.setState(tableState({ n: 4, you: 2, toMove: 3 }));
  assert.deepEqual([seatIn("bottom"), seatIn("left"), seatIn("top"), seatIn("right")], ["2", "3", "0", "1"]);
  assert.equal(document.getElementById("game").dataset.players, "4");
  assert.ok(part("left").querySelector(".seat").classList.contains("to-move"));
  assert.equal(part("left").querySelector(".seat").dataset.side, "left");
});

test("at three, the opponents sit left and right and nobody across", (t) => {
  const b = board(t);
  b.setState(tableState({ n: 3, you: 1 }));
  assert.deepEqual([seatIn("bottom"), seatIn("left"), seatIn("right")], ["1", "2", "0"]);
  assert.equal(part("top").children.length, 0);
});

test("an opponent's known cards are face up, the rest are backs, and its head says the rest", (t) => {
  const b = board(t);
  b.setState(tableState({
    n: 4, you: 0,
    known: [["7C", "9D"], ["6S", "AH"], [], ["KD"]], hidden: [0, 7, 9, 2],
    seats: [{}, { clock_ms: 65_000, connected: false, name: "bob", rating: 1612 }, {}, { kind: "ai", name: "AI level 3" }],
  }));
  assert.deepEqual(faceUp(1).sort(), ["6S", "AH"]);
  assert.equal(backs(1), 7);
  assert.deepEqual(faceUp(2), []);
  assert.equal(backs(2), 9);
  assert.deepEqual(faceUp(3), ["KD"]);
  assert.equal(backs(3), 2);
  assert.equal(document.querySelector("[data-testid=hand-size-1]").textContent, "9 cards");
  assert.ok(document.querySelector("[data-testid=trump-1]").textContent.includes("hearts"));
  assert.equal(document.querySelector("[data-clock='1']").textContent, "1:05");
  assert.ok(document.querySelector("[data-testid=offline-1]"));
  assert.equal(document.querySelector("[data-testid=offline-3]"), null); // the AI is never away
  assert.ok(part("left").querySelector(".rating").textContent.startsWith("1612"));
  // The opponents' cards are pictures, never buttons; the viewer's are.
  assert.equal(document.querySelectorAll("[data-part=left] button, [data-part=top] button, [data-part=right] button").length, 0);
  assert.equal(document.querySelectorAll("[data-part=bottom] button.card").length, 2);
});

test("a player who is out shows their place instead of a hand size", (t) => {
  const b = board(t);
  b.setState(tableState({
    n: 4, you: 0, toMove: 2, known: [["7C"], [], [], []], hidden: [0, 0, 5, 4],
    seats: [{}, { place: 1 }],
  }));
  assert.equal(document.querySelector("[data-testid=place-1]").textContent, "Out: place 1");
  assert.equal(document.querySelector("[data-testid=hand-size-1]"), null);
  assert.equal(document.querySelector("[data-testid=place-2]"), null);
});

test("at the end every seat shows its place, and a spectator is told who lost", (t) => {
  const b = board(t);
  b.setState(tableState({
    n: 3, you: null, status: "finished", known: [[], [], ["AS"]], hidden: [0, 0, 0],
    seats: [{ place: 1, result: "win" }, { place: 2, result: "win" }, { place: 3, result: "loss", name: "carol" }],
    result: { result: "decided", loser: 2, termination: "normal", reason: "Cards played out" },
  }));
  assert.deepEqual([0, 1, 2].map((i) => document.querySelector(`[data-testid=place-${i}]`).textContent),
    ["Place 1", "Place 2", "Place 3"]);
  assert.ok(document.querySelector("[data-seat='2']").classList.contains("lost"));
  assert.equal(document.querySelector("[data-testid=result-title]").textContent, "carol lost");
});

test("in the duel no place is drawn: the result says it", (t) => {
  const b = board(t);
  const state = tableState({ n: 2, you: 0, status: "finished", known: [[], ["6D"]], hidden: [0, 0],
    seats: [{ place: 1, result: "win" }, { place: 2, result: "loss" }],
    result: { result: "decided", loser: 1, termination: "normal", reason: "" } });
  b.setState(state);
  assert.equal(document.querySelectorAll("[data-testid^=place-]").length, 0);
  assert.equal(seatIn("top"), "1");
});

test("a spectator sees seat 0 at the bottom with only what everyone knows, and nothing to click", (t) => {
  const b = board(t);
  b.setState(tableState({ n: 4, you: null, known: [["6C"], [], ["QS"], []], hidden: [8, 9, 8, 9] }));
  assert.equal(seatIn("bottom"), "0");
  assert.deepEqual(faceUp(0), ["6C"]);
  assert.equal(backs(0), 8);
  assert.equal(document.querySelectorAll("#game button.card").length, 0);
  assert.equal(document.querySelector("[data-testid=take]"), null);
});

test("the trump choice names whose choice it is, and offers the free suits to the chooser", (t) => {
  const b = board(t);
  const choice = { chooser: 1, free: ["C", "D", "H"], deadline_ms: null };
  b.setState(tableState({ n: 4, you: 0, status: "trumps", toMove: 1, trumpChoice: choice, known: [[], [], [], []],
    hidden: [0, 0, 0, 0], seats: [{ trump: null }, { trump: null, name: "bob" }, { trump: null }, { trump: null }] }));
  assert.equal(document.querySelector(".trump-choice-title").textContent, "bob is choosing a trump suit");
  assert.equal(document.querySelectorAll("[data-testid^=choose-]").length, 0);
  b.setState({ ...tableState({ n: 4, you: 1, status: "trumps", toMove: 1, trumpChoice: choice, known: [[], [], [], []],
    hidden: [0, 0, 0, 0], seats: [{ trump: null }, { trump: null }, { trump: null }, { trump: null }] }), version: 9 });
  const buttons = [...document.querySelectorAll("[data-testid^=choose-]")];
  assert.deepEqual(buttons.map((node) => node.disabled), [false, false, false, true]);
  buttons[2].dispatchEvent(new document.defaultView.Event("click"));
  assert.deepEqual(sent, [{ type: "trump", suit: "H" }]);
});
