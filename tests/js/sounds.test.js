// The game's sounds follow the states the server sends: a move, a take, the viewer's turn,
// the end; and the volume kept by the browser bounds and mutes them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installPage } from "./support/page.js";
import { duelState } from "./support/states.js";

const { stateSound } = await import("../../static/js/game/sounds.js");

test("a new state sounds a move, a take, the viewer's turn or the end", () => {
  const before = duelState({ toMove: 0 });
  const moved = (over) => ({ ...before, ply: before.ply + 1, ...over });
  assert.equal(stateSound(null, before), null);
  assert.equal(stateSound(before, before), null);
  assert.equal(stateSound(before, moved({ to_move: 1, last_move: { ply: 1, seat: 0, move: "7C", taken: [] } })), "move");
  assert.equal(stateSound(before, moved({ to_move: 0, last_move: { ply: 1, seat: 1, move: "8C-KD", taken: [] } })), "turn");
  assert.equal(stateSound(before, moved({ to_move: 0, last_move: { ply: 1, seat: 1, move: "+3", taken: ["7C"] } })), "take");
  assert.equal(stateSound(before, moved({ status: "finished", last_move: { ply: 1, seat: 1, move: "6D", taken: [] } })), "end");
});

test("the volume is kept between 0 and 100, and a muted sound is silent", async () => {
  const document = installPage("");
  const kept = new Map();
  globalThis.window.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  const tones = [];
  globalThis.window.AudioContext = class {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    createOscillator() { const tone = { frequency: {}, connect: (node) => node, start() {}, stop() {} }; tones.push(tone); return tone; }
    createGain() {
      const ramp = () => {};
      return { gain: { setValueAtTime: ramp, exponentialRampToValueAtTime: ramp }, connect: (node) => node };
    }
  };
  const { playSound, setSoundVolume, soundVolume, SOUND_NAMES } = await import("../../static/js/sound.js?volume");
  document.dispatchEvent(new globalThis.window.Event("keydown")); // the person's first gesture
  assert.deepEqual([...SOUND_NAMES].sort(), ["challenge", "end", "lowtime", "move", "take", "turn"]);
  assert.equal(soundVolume(), 60);
  assert.equal(setSoundVolume(250), 100);
  assert.equal(setSoundVolume(-4), 0);
  assert.equal(playSound("challenge"), false); // muted
  assert.equal(playSound("no such sound"), false);
  assert.equal(tones.length, 0);
  setSoundVolume(30);
  assert.equal(playSound("challenge"), true);
  assert.deepEqual(tones.map((tone) => tone.frequency.value), [784, 988, 1319]);
});

test("no audio is made before the person's first gesture on the page, then it sounds", async () => {
  const document = installPage("");
  globalThis.window.localStorage = { getItem: () => null, setItem: () => {} };
  const made = [];
  globalThis.window.AudioContext = class {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; made.push(this); }
    createOscillator() { return { frequency: {}, connect: (node) => node, start() {}, stop() {} }; }
    createGain() {
      const ramp = () => {};
      return { gain: { setValueAtTime: ramp, exponentialRampToValueAtTime: ramp }, connect: (node) => node };
    }
  };
  // A fresh copy of the module, with its listeners on this page.
  const { playSound } = await import("../../static/js/sound.js?before-gesture");
  assert.equal(playSound("move"), false); // a spectator who only watches: silent, no warning
  assert.equal(made.length, 0);
  document.dispatchEvent(new globalThis.window.Event("keydown"));
  assert.equal(made.length, 1);
  assert.equal(playSound("move"), true);
  assert.equal(made.length, 1);
});
