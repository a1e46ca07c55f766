// The card component: one playing card as DOM (CSS draws it), used by the board and the
// rules page alike. A card is written rank then suit, as in the notation: "QH", "TS", "6C".

import { el, fill } from "../dom.js";

export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_SHOWN = { T: "10" };
const FACES = new Set(["J", "Q", "K"]);
export const SUIT_ORDER = "CDHS";
export const RANK_ORDER = "6789TJQKA";

export function suitOf(card) { return card[1]; }
export function rankOf(card) { return card[0]; }
export function isRed(suit) { return suit === "D" || suit === "H"; }

/** The spoken name of a card ("queen of hearts"), from the translated labels. */
export function cardName(card, labels) {
  if (!labels) return card;
  return fill(labels.card, {
    rank: labels.ranks[rankOf(card)], suit: (labels.cardSuits ?? labels.suits)[suitOf(card)],
  });
}

const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Words of a label made safe to put into HTML. */
function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]);
}

/**
 * A move as a person reads it, wherever one is shown (move lists, the replay, the puzzle's
 * verdict): "QH-7D" becomes "Q♥–7♦" (as HTML spans), and a take "+3" the board's words for
 * taking that many cards (`labels.take`, one label per count, in the page's language). The
 * notation itself stays in the data (`data-move`) and on the wire.
 */
export function moveHtml(text, labels) {
  if (text.startsWith("+")) {
    const words = labels?.take?.[Number(text.slice(1))] ?? text;
    return `<span class="take-move">${escapeHtml(words)}</span>`;
  }
  return text.split("-").map((card) => {
    const suit = suitOf(card);
    const rank = RANK_SHOWN[rankOf(card)] || rankOf(card);
    return `<span class="mv-card ${isRed(suit) ? "red" : "black"}">${rank}${SUIT_SYMBOLS[suit]}</span>`;
  }).join("<span class=\"mv-sep\">\u2013</span>");
}

/**
 * A card element. Options: `tag` ("div" or "button"), `labels` (for the accessible name),
 * `trump` (the suit of the hand's owner: its cards get a trump mark), `small`.
 */
export function cardElement(card, { tag = "div", labels = null, trump = null, small = false } = {}) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  const node = el(tag, `card ${isRed(suit) ? "red" : "black"} suit-${suit}`);
  if (small) node.classList.add("small");
  if (trump && suit === trump) node.classList.add("is-trump");
  node.dataset.card = card;
  if (tag === "button") node.type = "button";
  node.setAttribute("aria-label", cardName(card, labels));
  if (tag !== "button") node.setAttribute("role", "img");
  const shown = RANK_SHOWN[rank] || rank;
  const symbol = SUIT_SYMBOLS[suit];
  const corner = (where) => `<span class="corner ${where}" aria-hidden="true"><span class="rank">${shown}</span><span class="suit">${symbol}</span></span>`;
  let middle;
  if (FACES.has(rank)) {
    middle = `<span class="face" aria-hidden="true"><span class="face-rank">${shown}</span><span class="face-suit">${symbol}</span></span>`;
  } else if (rank === "A") {
    middle = `<span class="pip ace" aria-hidden="true">${symbol}</span>`;
  } else {
    middle = `<span class="pip" aria-hidden="true">${symbol}</span>`;
  }
  node.innerHTML = corner("tl") + middle + corner("br");
  return node;
}

/** The back of a card (for hands one may not see). */
export function cardBack({ small = false } = {}) {
  return el("div", { class: small ? "card back small" : "card back", "aria-hidden": "true" });
}

/** A suit badge ("♠ spades"), for trumps. */
export function suitBadge(suit, labels, text = null) {
  const badge = el("span", `suit-badge ${isRed(suit) ? "red" : "black"}`);
  badge.dataset.suit = suit;
  badge.append(el("span", { class: "suit-symbol", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]),
    el("span", "suit-words", text ?? (labels ? labels.suits[suit] : suit)));
  return badge;
}

/** Sort a hand for showing: by suit with the owner's trump suit last, then by rank. */
export function sortHand(cards, trump) {
  const suitKey = (s) => (s === trump ? 10 : SUIT_ORDER.indexOf(s));
  return [...cards].sort((a, b) =>
    suitKey(suitOf(a)) - suitKey(suitOf(b)) || RANK_ORDER.indexOf(rankOf(a)) - RANK_ORDER.indexOf(rankOf(b)));
}

/** Replace every `<span data-card-pic="QH">` (and `data-suit-pic`) in `root` with the component. */
export function hydrate(root, labels) {
  for (const holder of root.querySelectorAll("[data-card-pic]")) {
    const card = cardElement(holder.dataset.cardPic, {
      labels, trump: holder.dataset.trump || null, small: holder.hasAttribute("data-small"),
    });
    if (holder.dataset.highlight !== undefined) card.classList.add("last");
    holder.replaceWith(card);
  }
  for (const holder of root.querySelectorAll("[data-suit-pic]")) {
    holder.replaceWith(suitBadge(holder.dataset.suitPic, labels, holder.textContent.trim() || null));
  }
}
