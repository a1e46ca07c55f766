// The player's own hand: how it is held (one row, fanned when the cards must overlap) and the
// ways to play from it besides a click: dragging a card onto the pile, the keys (← → along the
// hand, the digits for the cards that may be played, T or + to take, Esc to take a choice
// back), and a premove: a card chosen while another player is to move, played the moment it
// is this player's turn if the server's legal moves then hold it as a move of its own (a
// lead), else forgotten. These are methods of `Board` (mixed in by board.js); which cards may
// be played they read from the server's legal moves only.

import { fill } from "../dom.js";
import { takeMove } from "./legal.js";

/** How far (px) a card must travel before a press becomes a drag rather than a click. */
const DRAG_START_PX = 6;
/** The most cards the digit keys reach (1–9). */
const DIGITS = 9;

export const handMethods = {
  /** The hand of the bottom seat, drawn: held as a fan if its cards overlap to fit the row;
   *  the digit of each card that may be played shown on it and named in its tooltip. */
  holdHand() {
    const hand = this.parts.bottom.querySelector(".hand");
    if (!hand) return;
    const cards = hand.children;
    const overlapping = cards.length > 1 && cards[1].offsetLeft - cards[0].offsetLeft < cards[0].offsetWidth;
    hand.classList.toggle("fan", overlapping);
    this.digitCards().forEach((node, i) => {
      node.dataset.key = String(i + 1);
      node.title = fill(this.labels.cardKey, { key: i + 1 });
    });
  },

  /** May the viewer choose a premove now: a player, in play, while someone else moves. */
  canPremove() {
    return this.isPlayer() && this.state.status === "playing" && !this.isMyTurn();
  },

  /** One card button of the bottom hand: enabled for a move (`enabled`) or a premove. */
  handCard(node, card, enabled) {
    const premove = this.canPremove();
    node.disabled = !enabled.has(card) && !premove;
    if (enabled.has(card)) node.classList.add("playable");
    if (premove) node.classList.add("premovable");
    if (this.premove === card) { node.classList.add("premoved"); node.setAttribute("aria-pressed", "true"); }
    if (this.selected === card) { node.classList.add("selected"); node.setAttribute("aria-pressed", "true"); }
    node.addEventListener("click", () => this.onCard(card));
    node.addEventListener("pointerdown", (event) => this.dragStart(event, node, card));
  },

  /** A card chosen while another player moves: chosen again, or Esc, takes it back. */
  choosePremove(card) {
    this.premove = this.premove === card ? null : card;
    this.render();
  },

  /** After a new state: play the premove if it is now a legal move of its own, else drop it. */
  settlePremove() {
    const card = this.premove;
    if (!card) return;
    if (this.state.status !== "playing") { this.premove = null; return; }
    if (!this.isMyTurn()) return;
    this.premove = null;
    if (this.state.legal_moves.includes(card)) this.play(card);
    else this.render();
  },

  // --- the keys ----------------------------------------------------------------------------

  /** The cards the digits reach, in the hand's order: those that may be played now (with a
   *  beater chosen, the ones that may follow it). */
  digitCards() {
    return [...this.parts.bottom.querySelectorAll("button.card.playable:not(.selected)")].slice(0, DIGITS);
  },

  /** The page's keys for the hand (installed on the document by the game page). */
  onHandKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !this.state || !this.isPlayer()) return;
    if (this.resignDialog || event.defaultPrevented) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const buttons = [...this.parts.bottom.querySelectorAll("button.card:not(:disabled)")];
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (!buttons.length) return;
      const at = buttons.indexOf(document.activeElement);
      const step = event.key === "ArrowRight" ? 1 : -1;
      const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
      buttons[next].focus();
      event.preventDefault();
      return;
    }
    if (/^[1-9]$/.test(event.key) && this.isMyTurn()) {
      const node = this.digitCards()[Number(event.key) - 1];
      if (node) { this.onCard(node.dataset.card); event.preventDefault(); }
      return;
    }
    if ((event.code === "KeyT" || event.key === "+") && this.isMyTurn()) {
      const take = takeMove(this.state.legal_moves);
      if (take && !this.selected) { this.play(take); event.preventDefault(); }
      return;
    }
    if (event.key === "Escape" && (this.premove || this.selected)) {
      this.premove = null;
      this.selected = null;
      this.render();
      event.preventDefault();
    }
  },

  // --- dragging a card onto the pile -------------------------------------------------------

  /** A press on a card that may be played: carried beyond `DRAG_START_PX`, it is dragged,
   *  and let go on the pile it is played as a click on it would be. A state that comes
   *  meanwhile draws the hand again: the drag follows its card, not one element. */
  dragStart(event, node, card) {
    if (event.button !== 0 || node.disabled || !this.isMyTurn()) return;
    const drag = { x: event.clientX, y: event.clientY, moved: false };
    const cardNode = () => this.parts.bottom.querySelector(`button.card[data-card="${card}"]`);
    const pile = () => this.parts.center.querySelector("[data-testid=pile]");
    const overPile = (e) => {
      const box = pile() && pile().getBoundingClientRect();
      return Boolean(box) && e.clientX >= box.left && e.clientX <= box.right
        && e.clientY >= box.top - 20 && e.clientY <= box.bottom + 20;
    };
    const move = (e) => {
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < DRAG_START_PX) return;
      drag.moved = true;
      this.drag = { card, dx, dy, over: overPile(e) };
      this.showDrag();
      e.preventDefault();
    };
    const end = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      if (!drag.moved) return; // a click: the click handler plays it
      this.drag = null;
      this.showDrag();
      const shown = cardNode();
      if (shown) {
        // The click that follows the release is the drag's, not a choice of its own.
        const swallow = (c) => { c.stopImmediatePropagation(); c.preventDefault(); };
        shown.addEventListener("click", swallow, { capture: true, once: true });
        setTimeout(() => shown.removeEventListener("click", swallow, { capture: true }), 0);
      }
      if (e.type === "pointerup" && overPile(e) && this.selected !== card) this.onCard(card);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  },

  /** Draw the drag in progress (`this.drag`) on the hand and the pile as they are now: the
   *  board may have drawn them again since the drag began. */
  showDrag() {
    const drag = this.drag;
    for (const node of this.parts.bottom.querySelectorAll("button.card.dragging")) {
      if (!drag || node.dataset.card !== drag.card) {
        node.classList.remove("dragging");
        node.style.removeProperty("transform");
      }
    }
    const pile = this.parts.center.querySelector("[data-testid=pile]");
    if (pile) pile.classList.toggle("drop-here", Boolean(drag && drag.over));
    if (!drag) return;
    const node = this.parts.bottom.querySelector(`button.card[data-card="${drag.card}"]`);
    if (!node) return;
    node.classList.add("dragging");
    node.style.setProperty("transform", `translate(${drag.dx}px, ${drag.dy}px)`);
  },
};
