// The replay's positions become the board's state (the shape of the match socket's `state`).
import assert from "node:assert/strict";
import { test } from "node:test";

import { boardState, movedCards, splitCards } from "../../static/js/replay/positions.js";

// Seat 0 leads 7C, seat 1 beats with 8C and lays KD, seat 0 takes 3, seat 1 leads 6D.
const DATA = {
  id: 3, variant: "standard", rated: false, n_players: 2, clock: null, live: false,
  result: { result: "1-0", loser: 0 },
  seats: [{ name: "a", kind: "user", trump: "S", place: 2, result: "loss" },
    { name: "b", kind: "user", trump: "H", place: 1, result: "win" }],
  positions: [
    { ply: 0, move: null, seat: null, to_move: 0, pile: "", hands: [["7C9D", 0], ["6D8CKD", 0]] },
    { ply: 1, move: "7C", seat: 0, to_move: 1, pile: "7C", hands: [["9D", 0], ["6D8CKD", 0]] },
    { ply: 2, move: "8C-KD", seat: 1, to_move: 0, pile: "7C8CKD", hands: [["9D", 0], ["6D", 0]] },
    { ply: 3, move: "+3", seat: 0, to_move: 1, pile: "", hands: [["7C8C9DKD", 0], ["6D", 0]] },
    { ply: 4, move: "6D", seat: 1, to_move: null, pile: "6D", hands: [["7C8C9DKD", 0], ["", 0]] },
  ],
};

test("cards are read two characters at a time", () => {
  assert.deepEqual(splitCards("7C8CKD"), ["7C", "8C", "KD"]);
  assert.deepEqual(splitCards(""), []);
});

test("a move's cards: the ones played, or the ones a take brought in", () => {
  assert.deepEqual(movedCards(DATA, 2), ["8C", "KD"]);
  assert.deepEqual(movedCards(DATA, 3).sort(), ["7C", "8C", "KD"]);
  assert.deepEqual(movedCards(DATA, 0), []);
});

test("the last move of a take carries what it took, as the socket's state does", () => {
  const state = boardState(DATA, 3, 7);
  assert.deepEqual(state.last_move.taken.sort(), ["7C", "8C", "KD"]);
  assert.deepEqual(boardState(DATA, 2, 8).last_move.taken, []);
  assert.equal(state.can_offer_draw, false);
  assert.deepEqual(state.legal_moves, []);
  assert.equal(state.status, "playing");
  assert.equal(boardState(DATA, 4, 9).status, "finished");
});
