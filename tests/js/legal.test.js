// The board's reading of the server's legal moves: which cards may be clicked.
import assert from "node:assert/strict";
import { test } from "node:test";

import { enabledCards, takeMove } from "../../static/js/game/legal.js";

const sorted = (cards) => [...cards].sort();

test("with an empty pile, every card that may lead", () => {
  assert.deepEqual(sorted(enabledCards(["7C", "9D", "AS"])), ["7C", "9D", "AS"]);
});

test("on a pile, the beaters (a take enables no card)", () => {
  const legal = ["7C-8C", "7C-KD", "AS-7C", "AS-8C", "AS-KD", "+3"];
  assert.deepEqual(sorted(enabledCards(legal)), ["7C", "AS"]);
  assert.deepEqual(sorted(enabledCards(["+5"])), []);
});

test("a beater chosen: it and the cards that may be laid on it", () => {
  const legal = ["7C-8C", "7C-KD", "AS-7C", "AS-8C", "+3"];
  assert.deepEqual(sorted(enabledCards(legal, "7C")), ["7C", "8C", "KD"]);
  assert.deepEqual(sorted(enabledCards(legal, "AS")), ["7C", "8C", "AS"]);
});

test("beating with one's last card is a card alone on a pile", () => {
  assert.deepEqual(sorted(enabledCards(["QH", "+1"])), ["QH"]);
});

test("the take is found among the moves, or there is none", () => {
  assert.equal(takeMove(["7C-8C", "+3"]), "+3");
  assert.equal(takeMove(["7C", "8C"]), undefined);
});
