// The lobby's tables are a view of the server's `lobby` message: an empty seat offers a seat
// to a player who sits nowhere, the creator's own table the AI in empty seats and a start
// only when the server says `can_start`.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { installPage } from "./support/page.js";

const { renderMyTable, renderMyTables, renderTables } = await import("../../static/js/lobby/tables.js");

const LABELS = {
  noTables: "No open tables.", emptySeat: "empty seat", sitDown: "Sit down", leave: "Leave",
  start: "Start", fillAI: "Seat the AI", removeAI: "Remove", ai: "AI, level %(level)s",
  public: "public", private: "private", tableOf: "%(name)s's table for %(players)s",
  waitingForPlayers: "Waiting.", rated: "rated", casual: "casual",
  correspondence: "%(control)s, correspondence",
  closesIn: { one: "closes in %(count)s day", other: "closes in %(count)s days" },
};
const LEVELS = [[1, "1 · beginner"], [2, "2 · greedy"], [3, "3 · club player"]];

function seat(index, kind, extra = {}) {
  return { index, kind, player: null, player_id: null, rating: null, provisional: false,
    ai_level: null, ...extra };
}

function table(seats, extra = {}) {
  return { token: "tok", url: "/table/tok/", creator: "anna", creator_id: 1, players: seats.length,
    time_control: "untimed", correspondence: false, rated: false, public: true,
    closes_in_days: null, seats, ...extra };
}

let document;
let sent;
const plurals = new Intl.PluralRules("en");
const view = (userId) => ({ labels: LABELS, levels: LEVELS, userId, send: (m) => sent.push(m),
  plural: (n) => plurals.select(n) });
const click = (node) => node.dispatchEvent(new document.defaultView.Event("click"));

beforeEach(() => {
  document = installPage(`<ul id="list"></ul>
    <section id="mine" hidden><div data-role="table"></div></section>`);
  globalThis.location = { href: "https://site.test/lobby/" }; // the private table's link
  sent = [];
});

test("an open table lists who sits where, and a player seated nowhere may sit down", () => {
  const list = document.getElementById("list");
  renderTables(list, [table([
    seat(0, "person", { player: "anna", player_id: 1, rating: 1510, provisional: true }),
    seat(1, "empty"), seat(2, "ai", { ai_level: 3 }),
  ])], view(7));

  const names = [...list.querySelectorAll("[data-testid=table-seat-name]")].map((n) => n.textContent);
  assert.deepEqual(names, ["anna (1510?)", "empty seat", "AI, level 3"]);
  assert.match(list.querySelector("[data-testid=table-terms]").textContent, /anna's table for 3/);
  click(list.querySelector("[data-testid=table-sit]"));
  assert.deepEqual(sent, [{ type: "table_join", table: "tok", seat: 1 }]);
});

test("no open table says so, and a seated player is offered no other seat", () => {
  const list = document.getElementById("list");
  renderTables(list, [], view(7));
  assert.equal(list.querySelector("[data-testid=no-tables]").textContent, "No open tables.");
  renderTables(list, [table([seat(0, "person", { player: "x", player_id: 7 }), seat(1, "empty"),
    seat(2, "empty")])], view(7));
  assert.equal(list.querySelector("[data-testid=table-sit]"), null);
});

test("the creator seats the AI at a chosen level and starts only when the server allows", () => {
  const mine = document.getElementById("mine");
  const own = table([seat(0, "person", { player: "anna", player_id: 1 }), seat(1, "empty"),
    seat(2, "ai", { ai_level: 2 })], { public: false });
  renderMyTable(mine, { table: own, can_start: false }, view(1));

  assert.equal(mine.hidden, false);
  assert.equal(mine.querySelector("[data-testid=table-start]"), null);
  assert.match(mine.querySelector("[data-testid=table-link]").getAttribute("value"), /^https:\/\/site\.test\/table\/tok\/$/);
  const level = mine.querySelector("[data-testid=table-ai-level]");
  assert.equal(level.value, "3");
  for (const option of level.querySelectorAll("option")) option.removeAttribute("selected");
  level.querySelector('option[value="1"]').setAttribute("selected", "");
  click(mine.querySelector("[data-testid=table-fill-ai]"));
  click(mine.querySelector("[data-testid=table-remove-ai]"));
  click(mine.querySelector("[data-testid=table-leave]"));
  assert.deepEqual(sent, [
    { type: "table_fill_ai", table: "tok", seat: 1, level: 1 },
    { type: "table_seat_clear", table: "tok", seat: 2 },
    { type: "table_leave", table: "tok" },
  ]);

  renderMyTable(mine, { table: own, can_start: true }, view(1));
  click(mine.querySelector("[data-testid=table-start]"));
  assert.deepEqual(sent.at(-1), { type: "table_start", table: "tok" });
  renderMyTable(mine, { table: null, can_start: false }, view(1));
  assert.equal(mine.hidden, true);
});

test("a correspondence table is marked as one among the live tables", () => {
  const list = document.getElementById("list");
  renderTables(list, [
    table([seat(0, "person", { player: "anna", player_id: 1 }), seat(1, "empty"), seat(2, "empty")],
      { token: "days", time_control: "3d", correspondence: true, closes_in_days: 12 }),
    table([seat(0, "person", { player: "boris", player_id: 2 }), seat(1, "empty"), seat(2, "empty")],
      { token: "live", time_control: "3+2" }),
  ], view(7));

  const [days, live] = list.querySelectorAll("[data-testid=table]");
  assert.equal(days.getAttribute("data-correspondence"), "true");
  assert.ok(days.classList.contains("correspondence"));
  assert.match(days.querySelector("[data-testid=table-terms]").textContent, / · 3d, correspondence · /);
  assert.match(days.querySelector("[data-testid=table-terms]").textContent, / · closes in 12 days$/);
  assert.equal(live.getAttribute("data-correspondence"), "false");
  assert.match(live.querySelector("[data-testid=table-terms]").textContent, / · 3\+2 · casual/);
});

test("several own correspondence tables are each shown with their own actions", () => {
  const mine = document.getElementById("mine");
  const own = (token, extra) => ({ table: table([seat(0, "person", { player: "anna", player_id: 1 }),
    seat(1, "empty"), seat(2, "empty")], { token, time_control: "2d", correspondence: true,
    closes_in_days: 1, ...extra }), can_start: false });
  renderMyTables(mine, [own("a"), own("b", { public: false })], view(1));

  assert.equal(mine.hidden, false);
  const tables = [...mine.querySelectorAll("[data-testid=own-table]")];
  assert.deepEqual(tables.map((t) => t.getAttribute("data-token")), ["a", "b"]);
  assert.match(tables[0].querySelector("[data-testid=table-terms]").textContent, / · closes in 1 day$/);
  assert.equal(tables[0].querySelector("[data-testid=table-link]"), null);
  assert.ok(tables[1].querySelector("[data-testid=table-link]"));
  click(tables[1].querySelector("[data-testid=table-leave]"));
  assert.deepEqual(sent, [{ type: "table_leave", table: "b" }]);
  renderMyTables(mine, [], view(1));
  assert.equal(mine.hidden, true);
});
