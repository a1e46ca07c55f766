// The DOM helpers every page's script uses: making an element, and filling a translated label.

/**
 * A new element. `options` is a class name (a string) or an object of attributes
 * (`{ class: "button", "data-testid": "take" }`); `text`, if given, is its text.
 */
export function el(tag, options, text) {
  const node = document.createElement(tag);
  if (typeof options === "string") {
    if (options) node.className = options;
  } else if (options) {
    for (const [name, value] of Object.entries(options)) node.setAttribute(name, value);
  }
  if (text !== undefined && text !== null && text !== "") node.textContent = text;
  return node;
}

// A label's placeholders are written `{name}` (the board's labels) or `%(name)s` (the labels
// that Python's own formatting shares): translators may move either within the sentence.
const PLACEHOLDER = /\{(\w+)\}|%\((\w+)\)s/g;

/** `template` with each placeholder replaced by its value in `values` (a missing one: ""). */
export function fill(template, values) {
  return template.replace(PLACEHOLDER, (_, braced, named) => String(values[braced ?? named] ?? ""));
}
