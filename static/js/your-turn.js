// The lists of correspondence games ("your turn", the home page) follow the games as they
// change: when the site socket brings news of a turn or of a game's end, or when the page
// comes back into view, the list is read again from the server and put in place of the old
// one. The server renders it (the page holds no rule of whose turn it is).

const LIST = "[data-testid=corr-games]";
const PARTS = [LIST, "[data-testid=waiting-count]"];
const NEWS = new Set(["turn", "reminder", "finished"]);
// News made this little before the list was read may not be in it (made, then committed).
const MARGIN_MS = 2000;

/** Whether a message of the site socket says a correspondence list read at `readMs` (the
 * server's clock) may have changed: news of a turn or an end, or, in the list of
 * notifications a socket receives when it opens, such news from after the list was read
 * (it came while the page was loading, before its socket could hear it). */
export function changesTheList(message, readMs) {
  if (message.type === "notification") {
    return Boolean(message.item) && NEWS.has(message.item.kind);
  }
  if (message.type === "notifications") {
    return (message.items || []).some(
      (item) => NEWS.has(item.kind) && item.created_ms >= readMs - MARGIN_MS);
  }
  return false;
}

function listReadMs(doc) {
  return Number(doc.querySelector(LIST)?.dataset.readS || 0) * 1000;
}

/** Put the parts of `html` (the page read again) in place of the same parts of `doc`. A
 * part whose content reads the same stays in place and only takes the new attributes:
 * replacing the link under a pointer between its press and its release would swallow the
 * click, and the person would stay on the list. */
export function replaceParts(doc, html) {
  const fresh = new DOMParser().parseFromString(html, "text/html");
  for (const selector of PARTS) {
    const old = doc.querySelector(selector);
    const now = fresh.querySelector(selector);
    if (!old || !now) continue;
    if (old.innerHTML === now.innerHTML) {
      for (const { name, value } of now.attributes) old.setAttribute(name, value);
    } else {
      old.replaceWith(doc.importNode(now, true));
    }
  }
}

async function refresh() {
  const response = await fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (response.ok) replaceParts(document, await response.text());
}

if (typeof document !== "undefined" && document.querySelector(LIST)) {
  let pending = null;
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(() => { refresh().catch(() => {}); }, 200);
  };
  document.addEventListener("site-message", (event) => {
    if (changesTheList(event.detail, listReadMs(document))) soon();
  });
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") soon(); });
}
