// The DOM helpers every page's script shares.
import assert from "node:assert/strict";
import { test } from "node:test";

import { el, fill } from "../../static/js/dom.js";
import { installPage } from "./support/page.js";

test("fill replaces both kinds of placeholder, wherever the translation put them", () => {
  assert.equal(fill("{name} to move", { name: "Ola" }), "Ola to move");
  assert.equal(fill("Ruch: %(name)s (%(count)s)", { name: "Ola", count: 3 }), "Ruch: Ola (3)");
  assert.equal(fill("{s} s, {s} s", { s: 0 }), "0 s, 0 s");
  assert.equal(fill("{missing}!", {}), "!");
});

test("el makes an element with a class or with attributes, and its text", () => {
  installPage();
  const withClass = el("span", "seat-name", "Ola");
  assert.equal(withClass.outerHTML, '<span class="seat-name">Ola</span>');
  const withAttributes = el("td", { colspan: "5", "data-testid": "no-seeks" }, "none");
  assert.equal(withAttributes.getAttribute("colspan"), "5");
  assert.equal(withAttributes.dataset.testid, "no-seeks");
  assert.equal(el("li").outerHTML, "<li></li>");
  assert.equal(el("b", "", 0).textContent, "0");
});
