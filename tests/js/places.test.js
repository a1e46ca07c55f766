// Where the seats sit on the screen: the viewer at the bottom, the others clockwise from the
// viewer's left (left, across, right), a spectator seeing seat 0 at the bottom.
import assert from "node:assert/strict";
import { test } from "node:test";

import { tablePlaces } from "../../static/js/game/places.js";

const sides = (n, viewer) => Object.fromEntries(
  tablePlaces(n, viewer).opponents.map(({ seat, side }) => [side, seat]));

test("the duel: the opponent across", () => {
  assert.deepEqual(tablePlaces(2, 0), { bottom: 0, opponents: [{ seat: 1, side: "across" }] });
  assert.deepEqual(tablePlaces(2, 1), { bottom: 1, opponents: [{ seat: 0, side: "across" }] });
});

test("a table of three: the next seat on the left, the one after on the right", () => {
  assert.deepEqual(sides(3, 0), { left: 1, right: 2 });
  assert.deepEqual(sides(3, 1), { left: 2, right: 0 });
  assert.deepEqual(sides(3, 2), { left: 0, right: 1 });
});

test("a table of four: left, across, right, clockwise from the viewer", () => {
  assert.deepEqual(sides(4, 0), { left: 1, across: 2, right: 3 });
  assert.deepEqual(sides(4, 2), { left: 3, across: 0, right: 1 });
  assert.deepEqual(sides(4, 3), { left: 0, across: 1, right: 2 });
});

test("a spectator sees seat 0 at the bottom", () => {
  for (const n of [2, 3, 4]) {
    for (const viewer of [null, undefined]) assert.equal(tablePlaces(n, viewer).bottom, 0);
  }
  assert.deepEqual(sides(4, null), { left: 1, across: 2, right: 3 });
});

test("at every table and from every seat, each seat is drawn once, in the order of play", () => {
  for (const n of [2, 3, 4]) {
    for (const viewer of [null, ...Array.from({ length: n }, (_, i) => i)]) {
      const { bottom, opponents } = tablePlaces(n, viewer);
      const order = [bottom, ...opponents.map((o) => o.seat)];
      assert.deepEqual([...order].sort(), Array.from({ length: n }, (_, i) => i));
      // Play goes clockwise: around the screen from the bottom, each seat follows the one before.
      order.forEach((seat, i) => assert.equal(seat, (bottom + i) % n));
      assert.equal(new Set(opponents.map((o) => o.side)).size, n - 1);
    }
  }
});

test("a table size or a seat that cannot be is refused", () => {
  assert.throws(() => tablePlaces(5, 0), RangeError);
  assert.throws(() => tablePlaces(1, 0), RangeError);
  assert.throws(() => tablePlaces(3, 3), RangeError);
  assert.throws(() => tablePlaces(4, -1), RangeError);
});
