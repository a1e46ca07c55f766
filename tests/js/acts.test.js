// Which acts the game page sends again after a reconnect, and how it tells that a resent
// move had been played before the connection broke.
import assert from "node:assert/strict";
import { test } from "node:test";

import { carriesPly, playedAlready } from "../../static/js/game/acts.js";

test("only an act that carries its ply is sent again", () => {
  assert.ok(carriesPly({ type: "move", move: "7C", ply: 0 }));
  assert.ok(!carriesPly({ type: "resign" }));
  assert.ok(!carriesPly({ type: "trump", suit: "S" }));
  assert.ok(!carriesPly({ type: "sync" }));
});

test("a move shows as played when the state has it, by the viewer, at its ply", () => {
  const state = { you: 1, moves: [[0, "7C"], [1, "8C-KD"], [0, "+3"]] };
  assert.ok(playedAlready(state, { move: "8C-KD", ply: 1 }));
  assert.ok(!playedAlready(state, { move: "8C-6D", ply: 1 })); // another move at that ply
  assert.ok(!playedAlready(state, { move: "7C", ply: 0 })); // the other player's
  assert.ok(!playedAlready(state, { move: "6D", ply: 3 })); // not played yet
  assert.ok(!playedAlready({ ...state, you: null }, { move: "8C-KD", ply: 1 }));
  assert.ok(!playedAlready(null, { move: "7C", ply: 0 }));
});
