// The lists of correspondence games follow the news of the site socket: which messages
// change them, and the parts of the page read again that replace the old ones.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DOMParser } from "linkedom";

import { changesTheList, replaceParts } from "../../static/js/your-turn.js";
import { installPage } from "./support/page.js";

test("a turn, a reminder or a game's end changes the list; other news does not", () => {
  for (const kind of ["turn", "reminder", "finished"]) {
    assert.equal(changesTheList({ type: "notification", item: { kind } }), true);
  }
  assert.equal(changesTheList({ type: "notification", item: { kind: "challenge" } }), false);
  assert.equal(changesTheList({ type: "notifications", items: [] }, 0), false);
  assert.equal(changesTheList({ type: "announcement", text: "restart" }, 0), false);
});

test("news in the list a socket gets when it opens changes a list read before it", () => {
  const read = 1_000_000;
  const turn = (createdMs) => ({ type: "notifications", items: [{ kind: "turn", created_ms: createdMs }] });
  assert.equal(changesTheList(turn(read + 500), read), true);
  assert.equal(changesTheList(turn(read - 1000), read), true); // made, perhaps not committed
  assert.equal(changesTheList(turn(read - 60_000), read), false); // in the list already
  assert.equal(changesTheList({ type: "notifications",
                                items: [{ kind: "challenge", created_ms: read + 500 }] }, read), false);
});

test("the list and the count are replaced by those of the page read again", () => {
  const doc = installPage(`<p data-testid="waiting-count">1 game</p>
    <ul data-testid="corr-games"><li data-match="1" data-your-turn="true"></li></ul><p id="other">x</p>`);
  globalThis.DOMParser = DOMParser;
  replaceParts(doc, `<html><body><p data-testid="waiting-count">2 games</p>
    <ul data-testid="corr-games"><li data-match="1" data-your-turn="true"></li>
    <li data-match="2" data-your-turn="true"></li></ul></body></html>`);
  assert.equal(doc.querySelector("[data-testid=waiting-count]").textContent, "2 games");
  assert.deepEqual([...doc.querySelectorAll("[data-match]")].map((li) => li.dataset.match), ["1", "2"]);
  assert.equal(doc.getElementById("other").textContent, "x");
});

test("a part that reads the same stays in place, so a click under way is not lost", () => {
  const doc = installPage(`<p data-testid="waiting-count">1 game</p>
    <ul data-testid="corr-games" data-read-s="10"><li data-match="1"><a href="/game/1/">1</a></li></ul>`);
  globalThis.DOMParser = DOMParser;
  const link = doc.querySelector("a");
  replaceParts(doc, `<html><body><p data-testid="waiting-count">1 game</p>
    <ul data-testid="corr-games" data-read-s="20"><li data-match="1"><a href="/game/1/">1</a></li></ul></body></html>`);
  assert.equal(doc.querySelector("a"), link);
  assert.equal(doc.querySelector("[data-testid=corr-games]").dataset.readS, "20");
});
