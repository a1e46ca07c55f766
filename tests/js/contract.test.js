// The client reads every field the server sends: each field of the match socket's `state`
// and of the lobby's `lobby` message (their pydantic models, exported by
// `python manage.py socket_schemas` into fixtures/socket-schemas.json, which a Python test
// keeps current) is read by the scripts that draw it, or is listed here with the reason the
// page has no use for it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const read = (path) => readFileSync(new URL(path, import.meta.url), "utf8");
const schemas = JSON.parse(read("./fixtures/socket-schemas.json"));

/** Every field of a message's schema, as "seats[].name", nested models included. */
function fieldsOf(schema) {
  const defs = schema.$defs ?? {};
  const fields = [];
  const walk = (node, path) => {
    if (!node || typeof node !== "object") return;
    if (node.$ref) return walk(defs[node.$ref.split("/").pop()], path);
    for (const part of [...(node.anyOf ?? []), ...(node.prefixItems ?? [])]) walk(part, path);
    if (node.items) walk(node.items, `${path}[]`);
    for (const [name, value] of Object.entries(node.properties ?? {})) {
      const at = path ? `${path}.${name}` : name;
      fields.push(at);
      walk(value, at);
    }
  };
  walk(schema, "");
  return fields;
}

/** The code of the scripts, without their comments. */
function code(files) {
  return files.map((path) => read(path)).join("\n")
    .replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** Whether `source` reads a property called `name` (`x.name`, `x?.name`). By name only: a
 *  field counts as read when a property of its name is read anywhere. */
function reads(source, name) {
  return new RegExp(String.raw`\.${name}\b`).test(source);
}

/** The fields `source` does not read; below a field it does not read, nothing is asked. */
function unread(fields, source) {
  const missing = [];
  for (const field of fields) {
    if (missing.some((parent) => field.startsWith(`${parent}.`) || field.startsWith(`${parent}[]`))) continue;
    if (!reads(source, field.split(".").pop().replace("[]", ""))) missing.push(field);
  }
  return missing;
}

// Sent for the other readers of the state (the load tool, the tests), not drawn by the board:
// the page's template shows the match's facts (rated, time control, variant) itself.
const STATE_NOT_DRAWN = {
  id: "the page knows its match",
  variant: "the template shows it",
  rated: "the template shows it",
  "clock.initial": "the template shows the time control; the seats carry the clocks",
  "clock.increment": "the template shows the time control; the seats carry the clocks",
  dealer: "who dealt shows in no part of the board",
  "seats[].index": "a seat's place in the list is its index",
  "seats[].ai_level": "the AI's name says its level",
  "seats[].rating_before": "the rating and its change are shown",
  "seats[].rating_after": "the rating and its change are shown",
};

test("the board reads every field of the match socket's state", () => {
  const sources = code(["board.js", "seats.js", "center.js", "panel.js", "main.js", "acts.js", "legal.js",
    "correspondence.js"]
    .map((file) => `../../static/js/game/${file}`));
  const fields = fieldsOf(schemas.match.state);
  assert.deepEqual(unread(fields, sources).sort(), Object.keys(STATE_NOT_DRAWN).sort());
});

// A challenge in the lobby is shown by its sender, time control and link.
const LOBBY_NOT_DRAWN = {
  "me.challenges_in[].to": "a challenge listed here is to the player",
  "me.challenges_in[].expires_ms": "the challenge's own page says how long it stands",
};

test("the lobby reads every field of the lobby message", () => {
  const sources = code(["lobby.js", "challenge.js", "socket.js", "tables.js"].map((file) => `../../static/js/lobby/${file}`));
  const fields = fieldsOf(schemas.lobby.lobby);
  assert.deepEqual(unread(fields, sources).sort(), Object.keys(LOBBY_NOT_DRAWN).sort());
});

test("every field is found, nested ones included", () => {
  const fields = fieldsOf(schemas.match.state);
  for (const field of ["can_offer_draw", "last_move.taken", "seats[].hand", "trump_choice.deadline_ms"]) {
    assert.ok(fields.includes(field), field);
  }
});

test("the header's script reads every field of the site socket's notification messages", () => {
  const sources = code(["../../static/js/notifications.js", "../../static/js/site.js"]);
  for (const type of ["notifications", "notification"]) {
    assert.deepEqual(unread(fieldsOf(schemas.site[type]), sources), [], type);
  }
});
