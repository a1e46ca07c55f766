// The side panel of the game board: whose turn it is, the actions a player may take (abort,
// resign, draws, claims, rematch), the result with its reason, and the move list. These are
// methods of `Board` (mixed in by board.js): they read its state and labels and send intents.

import { cardName, moveHtml } from "./cards.js";
import { confirmDialog } from "./confirm.js";
import { el, fill } from "../dom.js";

/** Names joined as the page's language joins a list ("A, B and C"). */
function listOf(names) {
  const lang = document.documentElement.lang || "en";
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(names);
}

export const panelMethods = {
  renderStatus() {
    const s = this.state;
    const status = this.parts.status;
    status.classList.remove("thinking", "my-turn");
    let text;
    if (s.status === "playing") {
      const mover = s.seats[s.to_move];
      if (this.isMyTurn()) {
        status.classList.add("my-turn");
        if (this.selected) text = this.labels.chooseSecond;
        else text = s.pile.length ? this.labels.yourTurnBeat : this.labels.yourTurnLead;
      } else if (mover.kind === "ai" || mover.taken_over) {
        status.classList.add("thinking");
        text = fill(this.labels.aiThinking, { name: this.seatName(s.to_move) });
      } else {
        text = fill(this.labels.theirTurn, { name: this.seatName(s.to_move) });
      }
    } else if (s.status === "trumps") {
      text = s.trump_choice.chooser === s.you ? this.labels.chooseTrump
        : fill(this.labels.waitTrump, { name: this.seatName(s.trump_choice.chooser) });
    } else {
      text = this.resultTitle();
    }
    if (this.premove && s.status === "playing" && !this.isMyTurn()) {
      text = `${text} \u00b7 ${fill(this.labels.premove, { card: cardName(this.premove, this.labels) })}`;
    }
    if (!this.isPlayer() && s.status !== "finished" && s.status !== "aborted") text = `${text} \u00b7 ${this.labels.spectating}`;
    status.textContent = text;
  },

  button(label, testid, onClick, className = "button") {
    const b = el("button", className, label);
    b.type = "button";
    b.dataset.testid = testid;
    b.addEventListener("click", onClick);
    return b;
  },

  /** Resigning asks first, in a dialog that a double click or a repeated Enter cannot pass. */
  askResign() {
    if (this.resignDialog) return;
    this.resignDialog = confirmDialog(this.root, {
      text: this.labels.confirmResign,
      confirm: this.labels.resign,
      cancel: this.labels.cancel,
      testid: "resign-dialog",
      onConfirm: () => this.send({ type: "resign" }),
      onClose: () => {
        this.resignDialog = null;
        const again = this.root.querySelector("[data-testid=resign]");
        if (again) again.focus();
      },
    });
  },

  /** The game ended (or left the phase where one may resign) while the dialog was open. */
  closeResign() {
    if (this.resignDialog) this.resignDialog.close();
  },

  renderActions() {
    const s = this.state;
    const box = this.parts.actions;
    box.replaceChildren();
    if (!this.isPlayer()) return;
    const mine = s.seats[s.you];
    if (mine.taken_over) {
      // They left the table: the AI plays the seat, and they act for it no more.
      const note = el("p", "taken-over", fill(this.labels.takenOverYou, { move: mine.taken_over_ply + 1 }));
      note.dataset.testid = "taken-over";
      box.append(note);
      if (s.status === "playing" || s.status === "trumps") return;
    }
    if (s.status === "playing" || s.status === "trumps") {
      if (s.can_abort) box.append(this.button(this.labels.abort, "abort", () => this.send({ type: "abort" })));
      if (s.status === "playing") {
        box.append(this.button(this.labels.resign, "resign", () => this.askResign()));
        if (s.can_offer_draw) this.renderDrawOffer(box);
        if (s.claim_at_ms) {
          const claim = el("div", "claim");
          claim.append(el("p", "claim-text"));
          claim.append(this.button(this.labels.claimVictory, "claim", () => this.send({ type: "claim_victory" }), "button primary"));
          box.append(claim);
        }
      }
    } else {
      if (s.rematch_id) {
        const link = el("a", "button primary", this.labels.rematch);
        link.href = this.matchUrl.replace("{id}", s.rematch_id);
        link.dataset.testid = "rematch-link";
        box.append(link);
      } else if (s.rematch_offer !== null) {
        this.renderRematchOffer(box);
      } else {
        box.append(this.button(this.labels.rematch, "rematch", () => this.send({ type: "rematch" }), "button primary"));
      }
      if (this.replayUrl) {
        const link = el("a", "button", this.labels.replay);
        link.href = this.replayUrl;
        link.dataset.testid = "replay-link";
        box.append(link);
      }
    }
  },

  /** A standing rematch offer: the viewer's answer, and at a table whose agreement it still
   *  waits for (a rematch seats everyone who played, so every person must agree). */
  renderRematchOffer(box) {
    const s = this.state;
    if (s.rematch_agreed.includes(s.you)) {
      const b = this.button(this.labels.rematchOffered, "rematch", () => {});
      b.disabled = true;
      box.append(b);
    } else {
      box.append(el("p", "offer", fill(this.labels.opponentOffersRematch, { name: s.seats[s.rematch_offer].name })));
      box.append(this.button(this.labels.acceptRematch, "rematch", () => this.send({ type: "rematch" }), "button primary"));
    }
    const others = s.rematch_awaited.filter((index) => index !== s.you);
    if (s.n_players > 2 && others.length) {
      // The people themselves: a seat the AI played is asked of the person who left it.
      const names = others.map((index) => s.seats[index].name);
      const waiting = el("p", "offer-waiting", fill(this.labels.drawWaiting, { names: listOf(names) }));
      waiting.dataset.testid = "rematch-waiting";
      box.append(waiting);
    }
  },

  /** The draw offer as the server says it stands: who offered, whose answer it waits for
   *  (at a table every seat still holding cards must agree), and the viewer's buttons. */
  renderDrawOffer(box) {
    const s = this.state;
    if (s.draw_offer === null) {
      box.append(this.button(this.labels.offerDraw, "draw-offer", () => this.send({ type: "draw_offer" })));
      return;
    }
    if (s.draw_awaited.includes(s.you)) {
      box.append(el("p", "offer", fill(this.labels.opponentOffersDraw, { name: s.seats[s.draw_offer].name })));
      box.append(this.button(this.labels.acceptDraw, "draw-accept", () => this.send({ type: "draw_accept" }), "button primary"));
      box.append(this.button(this.labels.declineDraw, "draw-decline", () => this.send({ type: "draw_decline" })));
    } else if (s.draw_agreed.includes(s.you)) {
      const b = this.button(s.draw_offer === s.you ? this.labels.drawOffered : this.labels.drawAccepted, "draw-offered", () => {});
      b.disabled = true;
      box.append(b);
    }
    const others = s.draw_awaited.filter((index) => index !== s.you);
    if (s.n_players > 2 && others.length) {
      const names = others.map((index) => this.seatName(index));
      const waiting = el("p", "offer-waiting", fill(this.labels.drawWaiting, { names: listOf(names) }));
      waiting.dataset.testid = "draw-waiting";
      box.append(waiting);
    }
  },

  resultTitle() {
    const s = this.state;
    if (!s.result) return "";
    if (s.status === "aborted") return this.labels.aborted;
    if (this.isPlayer()) return this.ownResult();
    if (s.result.loser === null) return this.labels.draw;
    if (s.n_players > 2) return fill(this.labels.loser, { name: s.seats[s.result.loser].name });
    const winner = s.seats.find((seat) => seat.result === "win");
    return winner ? fill(this.labels.winner, { name: winner.name }) : "";
  },

  /** The viewer's own result, as their seat has it: a player who left a table has the
   *  result of a resignation whatever the AI made of the seat; at a table a winner's place. */
  ownResult() {
    const s = this.state;
    const mine = s.seats[s.you];
    const result = this.ownResultKind();
    if (result === "draw") return this.labels.draw;
    if (result === "loss") return this.labels.lost;
    if (s.n_players > 2 && mine.place !== null) return fill(this.labels.wonPlace, { place: mine.place });
    return this.labels.won;
  },

  /** "win", "loss" or "draw": the seat's result, or the match's where the seat has none. */
  ownResultKind() {
    const s = this.state;
    const mine = s.seats[s.you].result;
    if (mine) return mine;
    if (s.result.loser === null) return "draw";
    return s.result.loser === s.you ? "loss" : "win";
  },

  renderResult() {
    const s = this.state;
    const box = this.parts.result;
    if (!s.result) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren();
    const title = el("p", "result-title", this.resultTitle());
    title.dataset.testid = "result-title";
    const reason = el("p", "result-reason", this.labels.reasons[s.result.termination] || s.result.reason);
    reason.dataset.testid = "result-reason";
    box.append(title, reason);
    const outcomes = { win: "won", loss: "lost", draw: "draw" };
    box.dataset.outcome = s.status === "aborted" ? "aborted"
      : this.isPlayer() ? outcomes[this.ownResultKind()]
        : s.result.loser === null ? "draw" : "decided";
  },

  /** The move list: one row per ply, its number beside it, the latest in view. Each state
   *  adds its new plies to the rows already drawn (a game may have 2,000), and the list is
   *  drawn again only when what it shows no longer starts the game's moves. */
  renderMoves() {
    const list = this.parts.moves;
    const s = this.state;
    let shown = list.children.length;
    const last = list.lastElementChild;
    if (shown > s.moves.length || (last && last.dataset.move !== s.moves[shown - 1][1])) {
      list.replaceChildren();
      shown = 0;
    }
    const rows = [];
    for (let i = shown; i < s.moves.length; i += 1) rows.push(this.moveRow(i));
    if (rows.length) list.append(...rows);
    for (const old of list.querySelectorAll("li.last")) {
      old.classList.remove("last");
      old.removeAttribute("aria-current");
    }
    const current = list.lastElementChild;
    if (current) { current.classList.add("last"); current.setAttribute("aria-current", "true"); }
    list.scrollTop = list.scrollHeight;
  },

  moveRow(i) {
    const [seat, text] = this.state.moves[i];
    const li = el("li", `move seat-${seat}`);
    li.value = i + 1;
    li.title = this.state.seats[seat].name;
    li.dataset.move = text;
    const number = el("span", "move-number", `${i + 1}.`);
    number.setAttribute("aria-hidden", "true");
    const move = el("span", "move-text");
    move.innerHTML = moveHtml(text, this.labels);
    li.append(number, move);
    return li;
  },
};
