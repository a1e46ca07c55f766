// The game board: a pure view of the state the server sends (including the legal moves of
// the seat to move). It draws, and reports the player's intents; the server decides.

import { cardBack, cardElement, sortHand } from "./cards.js";
import { centerMethods } from "./center.js";
import { el, fill } from "../dom.js";
import { enabledCards } from "./legal.js";
import { formatClock, formatDays, LOW_TIME_MS } from "./numbers.js";
import { handMethods } from "./hand.js";
import { panelMethods } from "./panel.js";
import { seatMethods } from "./seats.js";
import { stateSound } from "./sounds.js";
import { playSound } from "../sound.js";

const ANIMATION_MS = 380;

export class Board {
  constructor(root, { labels, send, matchUrl, replayUrl, sounds = false }) {
    this.root = root;
    this.labels = labels;
    this.send = send;
    this.matchUrl = matchUrl;
    this.replayUrl = replayUrl;
    this.state = null;
    this.sounds = sounds; // whether states sound (the game page; not the replay's steps)
    this.lowTimeWarned = -1; // the ply at which the player's low time was last sounded
    this.selected = null; // the beater chosen, waiting for the second card
    this.premove = null; // the card chosen while another player moves (hand.js)
    this.drag = null; // the card being dragged, where to, and whether over the pile (hand.js)
    this.receivedAt = 0;
    this.serverOffset = 0;
    this.resignDialog = null; // the open confirmation of a resignation (panel.js)
    this.parts = {
      across: root.querySelector("[data-part=top]"),
      left: root.querySelector("[data-part=left]"),
      right: root.querySelector("[data-part=right]"),
      bottom: root.querySelector("[data-part=bottom]"),
      center: root.querySelector("[data-part=center]"),
      status: root.querySelector("[data-part=status]"),
      actions: root.querySelector("[data-part=actions]"),
      result: root.querySelector("[data-part=result]"),
      moves: root.querySelector("[data-part=moves]"),
      notice: root.querySelector("[data-part=notice]"),
      connection: root.querySelector("[data-part=connection]"),
    };
    root.addEventListener("keydown", (event) => this.onKey(event));
    this.tick = this.tick.bind(this);
    setInterval(this.tick, 100);
  }

  // --- state in ---------------------------------------------------------------------------

  get version() { return this.state ? this.state.version : -1; }

  setState(next) {
    if (this.state && next.version < this.state.version) return;
    const previous = this.state;
    const animate = previous && next.ply === previous.ply + 1 && !matchMedia("(prefers-reduced-motion: reduce)").matches;
    const before = animate ? this.positions() : null;
    this.state = next;
    this.receivedAt = performance.now();
    this.serverOffset = next.server_time_ms - Date.now();
    if (!previous || previous.ply !== next.ply || !this.isMyTurn()) this.selected = null;
    if (previous && previous.status !== next.status) this.closeResign();
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    this.render();
    if (before) this.animateFrom(before, next.last_move);
    if (focused) {
      const again = this.parts.bottom.querySelector(`button.card[data-card="${focused}"]:not(:disabled)`);
      if (again) again.focus();
    }
    if (this.sounds) {
      const sound = stateSound(previous, next);
      if (sound) playSound(sound);
    }
    this.settlePremove();
  }

  /** The socket's status (static/js/socket.js): said in the side panel unless it is open. */
  setConnection(status, detail = {}) {
    const box = this.parts.connection;
    box.hidden = status === "open";
    const words = {
      connecting: this.labels.connecting,
      reconnecting: this.labels.reconnecting,
      failed: detail.final ? this.labels.connectionFailedFinal : this.labels.connectionFailed,
    };
    box.textContent = words[status] ?? "";
    box.classList.toggle("failed", status === "failed");
    this.root.dataset.connection = status;
  }

  showError(message) {
    const text = (this.labels.errors && this.labels.errors[message.code]) || message.detail || this.labels.errorGeneric;
    const notice = this.parts.notice;
    notice.textContent = text;
    notice.dataset.code = message.code;
    notice.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { notice.hidden = true; }, 4000);
  }

  // --- helpers ----------------------------------------------------------------------------

  isPlayer() { return this.state && this.state.you !== null && this.state.you !== undefined; }
  isMyTurn() {
    return this.isPlayer() && this.state.status === "playing" && this.state.to_move === this.state.you
      && !this.state.seats[this.state.you].taken_over;
  }
  seatName(index) {
    const seat = this.state.seats[index];
    const name = index === this.state.you ? this.labels.you : seat.name;
    // A person's seat the AI took over at a table: "AI for <name>".
    return seat.taken_over ? fill(this.labels.aiFor, { name }) : name;
  }
  nowServer() { return Date.now() + this.serverOffset; }

  // --- rendering --------------------------------------------------------------------------

  render() {
    const s = this.state;
    this.root.dataset.status = s.status;
    this.root.dataset.ply = s.ply;
    this.root.dataset.version = s.version;
    this.root.dataset.you = s.you ?? "";
    this.root.dataset.toMove = s.to_move ?? "";
    this.root.dataset.players = s.n_players;
    const { bottom, opponents } = this.layout();
    this.renderOpponents(opponents);
    this.parts.bottom.replaceChildren(this.renderSeat(bottom));
    this.holdHand();
    this.renderCenter();
    this.showDrag();
    this.renderStatus();
    this.renderActions();
    this.renderResult();
    this.renderMoves();
    this.tick();
    if (!this.baseTitle) this.baseTitle = document.title;
    document.title = this.isMyTurn() ? `\u25CF ${this.labels.yourTurn} \u00b7 ${this.baseTitle}` : this.baseTitle;
  }

  /** The seat at the bottom, the viewer's own (a spectator's: seat 0's, the cards everyone
   *  knows of it and backs): its cards are buttons when the viewer plays. */
  renderSeat(index) {
    const s = this.state;
    const seat = s.seats[index];
    const box = this.seatBox(index);
    const hand = el("div", "hand");
    hand.dataset.testid = `hand-${index}`;
    if (seat.trump) hand.style.setProperty("--trump-color", "");
    const enabled = this.isMyTurn() ? enabledCards(this.state.legal_moves, this.selected) : new Set();
    const cards = sortHand(seat.hand || [], seat.trump);
    const takenNow = this.takenCards(index);
    hand.style.setProperty("--n", cards.length + (seat.hidden || 0));
    for (const [i, card] of cards.entries()) {
      const node = cardElement(card, {
        tag: this.isPlayer() ? "button" : "div",
        labels: this.labels,
        trump: seat.trump,
      });
      if (node.tagName === "BUTTON") this.handCard(node, card, enabled);
      if (takenNow.has(card)) node.classList.add("just-taken");
      node.style.setProperty("--i", i);
      hand.append(node);
    }
    for (let i = 0; i < (seat.hidden || 0); i += 1) hand.append(cardBack());
    box.append(hand);
    return box;
  }

  /** Cards the last move took into this seat's hand (highlighted as the last move). */
  takenCards(index) {
    const last = this.state.last_move;
    return new Set(last && last.seat === index ? last.taken : []);
  }

  // --- time -------------------------------------------------------------------------------

  /** A clock as it is shown: minutes and seconds, or days and hours for days per move. */
  clockText(ms) {
    return this.state && this.state.clock && this.state.clock.per_move ? formatDays(ms) : formatClock(ms);
  }

  tick() {
    const s = this.state;
    if (!s) return;
    const elapsed = performance.now() - this.receivedAt;
    for (const node of this.root.querySelectorAll("[data-clock]")) {
      const index = Number(node.dataset.clock);
      const base = s.seats[index].clock_ms;
      const running = s.running === index;
      const ms = running ? base - elapsed : base;
      node.textContent = this.clockText(ms);
      node.classList.toggle("running", running);
      node.classList.toggle("low", ms < LOW_TIME_MS);
      if (this.sounds && running && index === s.you && ms < LOW_TIME_MS && ms > 0
          && this.lowTimeWarned !== s.ply) {
        this.lowTimeWarned = s.ply;
        playSound("lowtime");
      }
    }
    const deadline = this.root.querySelector(".trump-deadline");
    if (deadline && deadline.dataset.deadline) {
      const ms = Number(deadline.dataset.deadline) - this.nowServer();
      deadline.textContent = s.clock && s.clock.per_move
        ? fill(this.labels.trumpDeadlineDays, { time: formatDays(ms, true) })
        : fill(this.labels.trumpDeadline, { s: Math.max(0, Math.ceil(ms / 1000)) });
    }
    const claim = this.root.querySelector(".claim");
    if (claim && s.claim_at_ms) {
      const seconds = Math.max(0, Math.ceil((s.claim_at_ms - this.nowServer()) / 1000));
      const name = s.seats[s.to_move] ? s.seats[s.to_move].name : "";
      claim.querySelector(".claim-text").textContent = seconds > 0
        ? fill(this.labels.opponentLeft, { name, s: seconds }) : fill(this.labels.opponentLeftNow, { name });
      claim.querySelector("button").disabled = seconds > 0;
    }
  }

  // --- intents ----------------------------------------------------------------------------

  play(move) {
    this.selected = null;
    this.send({ type: "move", move, ply: this.state.ply });
    // Until the server answers, nothing more may be played.
    for (const b of this.root.querySelectorAll("button.card, .take-button")) {
      b.disabled = true;
      b.classList.remove("playable");
    }
  }

  onCard(card) {
    if (!this.isMyTurn()) {
      if (this.canPremove()) this.choosePremove(card);
      return;
    }
    const legal = this.state.legal_moves;
    if (this.selected === card) { this.selected = null; this.render(); return; }
    if (this.selected) {
      const move = `${this.selected}-${card}`;
      if (legal.includes(move)) this.play(move);
      return;
    }
    if (legal.includes(card)) { this.play(card); return; } // a lead, or beating with one's last card
    if (legal.some((m) => m.startsWith(`${card}-`))) {
      this.selected = card;
      this.render();
      const next = this.parts.bottom.querySelector("button.card.playable:not(.selected)");
      if (next) next.focus();
    }
  }

  onKey(event) {
    if (event.key === "Escape" && this.selected) {
      this.selected = null;
      this.render();
      event.preventDefault();
    }
  }

  // --- animation (FLIP: from where each card was to where it is) ---------------------------

  positions() {
    const map = new Map();
    for (const node of this.root.querySelectorAll(".card[data-card]")) map.set(node.dataset.card, node.getBoundingClientRect());
    return map;
  }

  animateFrom(before, lastMove) {
    const moved = new Set(lastMove ? (lastMove.move.startsWith("+") ? lastMove.taken : lastMove.move.split("-")) : []);
    for (const node of this.root.querySelectorAll(".card[data-card]")) {
      const old = before.get(node.dataset.card);
      const now = node.getBoundingClientRect();
      if (!old) {
        node.animate([{ opacity: 0 }, { opacity: 1 }], { duration: ANIMATION_MS });
        continue;
      }
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      const scale = old.width / (now.width || 1);
      const lift = moved.has(node.dataset.card);
      node.animate(
        [
          { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: lift ? 50 : 1 },
          { transform: "none", zIndex: lift ? 50 : 1 },
        ],
        { duration: lift ? ANIMATION_MS : ANIMATION_MS * 0.7, easing: "cubic-bezier(.2,.8,.2,1)" },
      );
    }
  }
}

// The seats (seats.js), the pile and the trump choice (center.js) and the side panel (status,
// actions, result, move list: panel.js) are drawn by those modules' methods; the player's own
// hand is held and played from by hand.js's.
Object.assign(Board.prototype, seatMethods, centerMethods, panelMethods, handMethods);
