// Numbers in the page's language: a clock's "m:ss", with tenths under ten seconds.
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatClock, formatDays, numberFormat } from "../../static/js/game/numbers.js";

function inLanguage(lang) {
  globalThis.document = { documentElement: { lang } };
}

test("a clock shows minutes and seconds, and tenths when time runs low", () => {
  inLanguage("en");
  assert.equal(formatClock(185_000), "3:05");
  assert.equal(formatClock(10_000), "0:10");
  assert.equal(formatClock(9_449), "0:09.4");
  assert.equal(formatClock(-300), "0:00.0");
});

test("the decimal sign is the language's", () => {
  inLanguage("pl");
  assert.equal(formatClock(9_449), "0:09,4");
  inLanguage("eu");
  assert.equal(formatClock(9_449), "0:09,4");
  inLanguage("ru");
  assert.equal(numberFormat({ minimumFractionDigits: 1 }).format(1.5), "1,5");
});

test("a page without a language is written in English", () => {
  inLanguage("");
  assert.equal(formatClock(5_000), "0:05.0");
});

test("a correspondence clock shows its two largest units, in the page's language", () => {
  inLanguage("en");
  const hour = 3_600_000;
  assert.equal(formatDays(2 * 24 * hour + 3 * hour + 5_000), "2d 3h");
  assert.equal(formatDays(3 * 24 * hour), "3d");
  assert.equal(formatDays(5 * hour + 30 * 60_000, true), "5 hours 30 minutes");
  assert.equal(formatDays(24 * hour + hour, true), "1 day 1 hour");
  assert.equal(formatDays(59 * 60_000), "59:00");
  inLanguage("pl");
  assert.equal(formatDays(2 * 24 * hour, true), "2 dni");
});
