// A page's DOM for the tests that draw (linkedom: a DOM without a browser), set as the
// globals the client's modules use.
import { parseHTML } from "linkedom";

/** Install a document of `body` (in language `lang`) as the global `document`. */
export function installPage(body = "", { lang = "en" } = {}) {
  const { document, window } = parseHTML(`<!DOCTYPE html><html lang="${lang}"><head><title>Game</title></head><body>${body}</body></html>`);
  globalThis.document = document;
  globalThis.window = window;
  // The board asks whether to animate: a test page prefers reduced motion.
  globalThis.matchMedia = () => ({ matches: true });
  return document;
}

/** The game page's board markup (templates/games/match.html), for `Board`. */
export const BOARD_HTML = `
<div class="game" id="game">
  <div data-part="top"></div><div data-part="left"></div><div data-part="center"></div>
  <div data-part="right"></div><div data-part="bottom"></div>
  <div data-part="connection" hidden></div><p data-part="status"></p>
  <div data-part="result" hidden></div><div data-part="notice" hidden></div>
  <div data-part="actions"></div><ol data-part="moves"></ol>
</div>`;
