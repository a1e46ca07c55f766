// The lobby's forms that create a game follow the server's rule for a person playing a live
// game: no live table or seek until it is over, a correspondence one at once; the note says why.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installPage } from "./support/page.js";

const { renderCreateForm } = await import("../../static/js/lobby/forms.js");

const FORM = `<form id="table-form">
  <select name="time_control"><option value="untimed" selected>untimed</option>
    <option value="3+2">3+2</option><option value="3d" data-correspondence>3 days</option></select>
  <button type="submit">Create a table</button><p data-role="busy" hidden>Finish it first.</p>
</form>`;

function choose(form, value) {
  for (const option of form.querySelectorAll("option")) {
    if (option.value === value) option.setAttribute("selected", "");
    else option.removeAttribute("selected");
  }
}

test("a person in a live game may create only a correspondence game, and is told why", () => {
  const document = installPage(FORM);
  const form = document.getElementById("table-form");
  const button = form.querySelector("button");
  const note = form.querySelector("[data-role=busy]");
  assert.equal(renderCreateForm(form, { playing: false }), true);
  assert.equal(button.disabled, false);
  assert.equal(note.hidden, true);
  assert.equal(renderCreateForm(form, { playing: true }), false);
  assert.equal(button.disabled, true);
  assert.equal(note.hidden, false);
  choose(form, "3d");
  assert.equal(renderCreateForm(form, { playing: true }), true);
  assert.equal(button.disabled, false);
  assert.equal(note.hidden, true);
  choose(form, "3+2");
  assert.equal(renderCreateForm(form, { playing: true }), false);
  assert.equal(renderCreateForm(form, { playing: false }), true);
  assert.equal(button.disabled, false);
});
