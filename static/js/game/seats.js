// The seats around the table: each seat's head (name, rating, trump, hand size, clock,
// presence, place) and the opponents' hands, left, across and right of the viewer. These are
// methods of `Board` (mixed in by board.js). What is drawn is what the state says: the cards of
// a hand the viewer may see face up (`seat.hand`), the others as backs (`seat.hidden`).

import { cardBack, cardElement, sortHand, suitBadge } from "./cards.js";
import { el, fill } from "../dom.js";
import { tablePlaces } from "./places.js";

const SIDE_PARTS = ["left", "across", "right"];

export const seatMethods = {
  /** The seats in screen order (places.js): the viewer (or seat 0) at the bottom. */
  layout() {
    return tablePlaces(this.state.n_players, this.isPlayer() ? this.state.you : null);
  },

  /** Draw the opponents into their sides of the table; a side nobody sits on stays empty. */
  renderOpponents(opponents) {
    const bySide = new Map(opponents.map(({ seat, side }) => [side, seat]));
    for (const side of SIDE_PARTS) {
      const part = this.parts[side];
      if (!part) continue;
      const seat = bySide.get(side);
      part.replaceChildren(...(seat === undefined ? [] : [this.renderOpponent(seat, side)]));
    }
  },

  /** One opponent: the head, then the hand with the known cards face up and the rest as backs. */
  renderOpponent(index, side) {
    const s = this.state;
    const seat = s.seats[index];
    const box = this.seatBox(index);
    box.dataset.side = side;
    box.setAttribute("aria-label", this.seatName(index));
    const hand = el("div", s.n_players > 2 ? "hand fanned" : "hand");
    hand.dataset.testid = `hand-${index}`;
    const taken = this.takenCards(index);
    for (const card of sortHand(seat.hand || [], seat.trump)) {
      const node = cardElement(card, { labels: this.labels, trump: seat.trump, small: true });
      if (taken.has(card)) node.classList.add("just-taken");
      hand.append(node);
    }
    for (let i = 0; i < (seat.hidden || 0); i += 1) hand.append(cardBack({ small: true }));
    box.append(hand);
    return box;
  },

  /** A seat's frame and head; the caller adds the hand. */
  seatBox(index) {
    const s = this.state;
    const seat = s.seats[index];
    const box = el("section", "seat");
    box.dataset.seat = index;
    box.dataset.testid = `seat-${index}`;
    const over = s.status === "finished" || s.status === "aborted";
    if (s.to_move === index && !over) box.classList.add("to-move");
    if (index === s.you) box.classList.add("mine");
    if (seat.result === "loss") box.classList.add("lost");
    box.append(this.seatHead(index));
    return box;
  },

  seatHead(index) {
    const s = this.state;
    const seat = s.seats[index];
    const head = el("header", "seat-head");
    const name = el("span", "seat-name", this.seatName(index));
    if (index === s.you && seat.name) name.title = seat.name;
    head.append(name);
    if (seat.bot) head.append(el("span", "bot-title", this.labels.bot));
    if (seat.rating !== undefined && seat.rating !== null) {
      const rating = el("span", "rating", `${seat.rating}${seat.provisional ? "?" : ""}`);
      if (seat.rating_delta !== null && seat.rating_delta !== undefined) {
        const delta = el("span", `rating-delta ${seat.rating_delta >= 0 ? "up" : "down"}`,
          seat.rating_delta >= 0 ? `+${seat.rating_delta}` : `\u2212${-seat.rating_delta}`);
        delta.dataset.testid = `rating-delta-${index}`;
        rating.append(" ", delta);
      }
      head.append(rating);
    }
    if (seat.kind !== "ai" && !seat.taken_over && !seat.connected && s.status === "playing") {
      const offline = el("span", "offline", this.labels.offline);
      offline.dataset.testid = `offline-${index}`;
      head.append(offline);
    }
    if (seat.trump) {
      const badge = suitBadge(seat.trump, this.labels, fill(this.labels.trump, { suit: this.labels.suits[seat.trump] }));
      badge.classList.add("trump-badge");
      badge.dataset.testid = `trump-${index}`;
      head.append(badge);
    }
    const place = this.placeBadge(index);
    if (place) head.append(place);
    else if (s.status !== "trumps") {
      const size = el("span", "hand-size", this.labels.handSize[seat.hand_size] ?? String(seat.hand_size));
      size.dataset.testid = `hand-size-${index}`;
      head.append(size);
    }
    if (seat.clock_ms !== null && seat.clock_ms !== undefined) {
      const clock = el("span", "clock", this.clockText(seat.clock_ms));
      clock.dataset.clock = index;
      clock.setAttribute("role", "timer");
      head.append(clock);
    }
    return head;
  },

  /** At a table of 3 or 4, a seat's place: once out during the game, and everyone's at its
   *  end (the duel's result says it all). The server sends the place; none is worked out here. */
  placeBadge(index) {
    const s = this.state;
    const seat = s.seats[index];
    if (s.n_players < 3 || seat.place === null || seat.place === undefined) return null;
    const words = s.status === "playing" ? this.labels.placeOut : this.labels.place;
    const badge = el("span", "place", fill(words, { place: seat.place }));
    badge.dataset.testid = `place-${index}`;
    return badge;
  },
};
