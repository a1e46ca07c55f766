// The card component's parts that need no page: names, notation, the order of a hand.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, isRed, moveHtml, rankOf, sortHand, suitOf } from "../../static/js/game/cards.js";

test("a card is its rank then its suit", () => {
  assert.equal(rankOf("TS"), "T");
  assert.equal(suitOf("TS"), "S");
  assert.ok(isRed("H") && isRed("D") && !isRed("C") && !isRed("S"));
});

test("a card's spoken name comes from the labels, in the card-name form of the suit", () => {
  const labels = {
    card: "{rank} {suit}", ranks: { Q: "дама" }, suits: { H: "черви" }, cardSuits: { H: "червей" },
  };
  assert.equal(cardName("QH", labels), "дама червей");
  assert.equal(cardName("QH", { ...labels, cardSuits: undefined }), "дама черви");
  assert.equal(cardName("QH", null), "QH");
});

test("a take reads as the board's words for it, in the page's language", () => {
  const take = ["Take 0 cards", "Take 1 card", "Take 2 cards", "Take 3 cards"];
  assert.equal(moveHtml("+1", { take }), '<span class="take-move">Take 1 card</span>');
  assert.equal(moveHtml("+3", { take }), '<span class="take-move">Take 3 cards</span>');
  const pl = ["Weź 0 kart", "Weź 1 kartę", "Weź 2 karty"];
  assert.equal(moveHtml("+2", { take: pl }), '<span class="take-move">Weź 2 karty</span>');
  assert.equal(moveHtml("+1", { take: ["", "<b>1</b>"] }),
    '<span class="take-move">&lt;b&gt;1&lt;/b&gt;</span>');
});

test("moves are written with suit symbols and the ten as 10", () => {
  assert.equal(moveHtml("TH-7C"),
    '<span class="mv-card red">10\u2665</span><span class="mv-sep">\u2013</span><span class="mv-card black">7\u2663</span>');
});

test("a hand is sorted by suit with the owner's trump last, then by rank", () => {
  assert.deepEqual(sortHand(["AS", "6H", "TC", "7S", "KD", "6C"], "S"), ["6C", "TC", "KD", "6H", "7S", "AS"]);
  assert.deepEqual(sortHand(["AS", "6H"], "H"), ["AS", "6H"]);
  const hand = ["9D", "8C"];
  sortHand(hand, "S");
  assert.deepEqual(hand, ["9D", "8C"]); // the hand given is left as it was
});
