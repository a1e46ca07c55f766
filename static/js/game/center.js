// The middle of the table: the pile (its top cards, the last move's cards marked, how many lie
// in it, the take button when the viewer may take) and, before play, the choice of trumps in
// turn (the server's `trump_choice` says whose it is and which suits are free). These are
// methods of `Board` (mixed in by board.js).

import { cardElement, suitBadge } from "./cards.js";
import { el, fill } from "../dom.js";
import { takeMove } from "./legal.js";

export const centerMethods = {
  renderCenter() {
    const s = this.state;
    const center = this.parts.center;
    center.replaceChildren();
    if (s.status === "trumps") {
      center.append(this.renderTrumpChoice());
      return;
    }
    const pileBox = el("div", "pile");
    pileBox.dataset.testid = "pile";
    pileBox.setAttribute("aria-label", this.labels.pile[s.pile.length] ?? String(s.pile.length));
    pileBox.setAttribute("role", "group");
    const last = s.last_move;
    const lastCards = new Set(last && !last.move.startsWith("+") ? last.move.split("-") : []);
    const shownFrom = Math.max(0, s.pile.length - 8);
    if (shownFrom > 0) {
      const under = el("div", "pile-under");
      under.style.setProperty("--depth", Math.min(shownFrom, 6));
      pileBox.append(under);
    }
    s.pile.forEach((card, i) => {
      const node = cardElement(card, { labels: this.labels });
      if (i < shownFrom) node.classList.add("buried");
      if (i === s.pile.length - 1) node.classList.add("top");
      if (lastCards.has(card)) node.classList.add("last");
      pileBox.append(node);
    });
    if (!s.pile.length) pileBox.append(el("div", "pile-empty", this.labels.emptyPile));
    const count = el("div", "pile-count", this.labels.pile[s.pile.length] ?? String(s.pile.length));
    count.dataset.testid = "pile-count";
    center.append(pileBox, count);
    const take = takeMove(s.legal_moves);
    if (this.isMyTurn() && take) {
      const button = el("button", "button take-button", this.labels.take[s.take_count] ?? take);
      button.type = "button";
      button.dataset.testid = "take";
      button.dataset.move = take;
      button.addEventListener("click", () => this.play(take));
      center.append(button);
    }
  },

  renderTrumpChoice() {
    const s = this.state;
    const box = el("div", "trump-choice");
    const choice = s.trump_choice;
    const mine = this.isPlayer() && choice.chooser === s.you;
    box.append(el("p", "trump-choice-title",
      mine ? this.labels.chooseTrump : fill(this.labels.waitTrump, { name: this.seatName(choice.chooser) })));
    if (mine) {
      const row = el("div", "trump-buttons");
      for (const suit of "CDHS") {
        const button = el("button", "button suit-button");
        button.type = "button";
        button.append(suitBadge(suit, this.labels));
        button.dataset.testid = `choose-${suit}`;
        button.disabled = !choice.free.includes(suit);
        button.addEventListener("click", () => this.send({ type: "trump", suit }));
        row.append(button);
      }
      box.append(row);
    }
    const countdown = el("p", "trump-deadline");
    countdown.dataset.deadline = choice.deadline_ms ?? "";
    box.append(countdown);
    return box;
  },
};
