// States as the match socket sends them (games.play.snapshots.snapshot_view), for the board.

export const LABELS = {
  suits: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  ranks: { 6: "six", 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
  card: "{rank} of {suit}",
  take: Array.from({ length: 37 }, (_, n) => `Take ${n} cards`),
  pile: Array.from({ length: 37 }, (_, n) => `${n} cards in the pile`),
  handSize: Array.from({ length: 37 }, (_, n) => `${n} cards`),
  trump: "Trump: {suit}",
  you: "You", yourTurn: "Your turn", yourTurnLead: "Your turn: lead any card",
  yourTurnBeat: "Your turn: beat the top card or take", chooseSecond: "Now choose the card to lay on top",
  theirTurn: "{name} to move", aiThinking: "{name} is thinking", spectating: "You are watching this game",
  emptyPile: "The pile is empty", resign: "Resign", abort: "Abort", confirmResign: "Resign this game?", cancel: "Cancel", cardKey: "Key {key}", premove: "Premove: {card} (Esc takes it back)",
  rematch: "Rematch", rematchOffered: "Rematch offered", acceptRematch: "Accept the rematch",
  opponentOffersRematch: "{name} wants a rematch",
  offerDraw: "Offer a draw", drawOffered: "Draw offered", acceptDraw: "Accept the draw", declineDraw: "Decline",
  opponentOffersDraw: "{name} offers a draw", claimVictory: "Claim victory", offline: "offline",
  connecting: "Connecting…", reconnecting: "Connection lost. Reconnecting…",
  connectionFailed: "The connection failed. Trying again…",
  connectionFailedFinal: "The connection failed. Reload the page to try again.",
  errors: {}, errorGeneric: "That did not work.", reasons: {},
  place: "Place {place}", placeOut: "Out: place {place}", loser: "{name} lost", won: "You won", lost: "You lost",
  draw: "Draw", wonPlace: "You won: place {place}", drawAccepted: "You accepted the draw", drawWaiting: "Still to answer: {names}",
  takenOverYou: "You left the table: the AI played your seat from move {move}.",
  chooseTrump: "Choose your trump suit", waitTrump: "{name} is choosing a trump suit", trumpDeadline: "A random suit in {s} s",
};

function seat(index, hand, overrides = {}) {
  return {
    index, name: `player${index}`, kind: "user", ai_level: null, taken_over: false, taken_over_ply: null,
    trump: "SH"[index], hand, hidden: 0,
    hand_size: hand.length, clock_ms: null, connected: true, place: null, result: null,
    rating_before: null, rating_after: null, ...overrides,
  };
}

/** A duel being played, seen by seat `you`: `pile`, hands and legal moves as given. */
export function duelState({ you = 0, toMove = 0, hands = [["7C", "9D"], ["6D", "8C", "KD"]], pile = [],
  legal = [], moves = [], lastMove = null, canOfferDraw = true, drawOffer = null, seats = [],
  drawAgreed = drawOffer === null ? [] : [drawOffer],
  drawAwaited = drawOffer === null ? [] : [1 - drawOffer], ...rest } = {}) {
  return {
    type: "state", id: 1, version: moves.length + 1, ply: moves.length, status: "playing",
    variant: "standard", rated: false, n_players: 2, dealer: 1, clock: null, you,
    seats: hands.map((hand, i) => seat(i, hand, seats[i])), pile, to_move: toMove, running: null,
    legal_moves: you === toMove ? legal : [], take_count: rest.takeCount ?? 0, trump_choice: null,
    moves, last_move: lastMove, draw_offer: drawOffer, draw_agreed: drawAgreed,
    draw_awaited: drawAwaited, can_offer_draw: canOfferDraw,
    rematch_offer: null, rematch_agreed: [], rematch_awaited: [], rematch_id: null, can_abort: false, claim_at_ms: null, result: null,
    server_time_ms: 0,
  };
}

/**
 * A table of 3 or 4 being played, seen by seat `you` (null: a spectator). `known[i]` are the
 * cards of seat i the viewer may see, `hidden[i]` how many it may not; the viewer's own hand
 * is all known. `seats[i]` overrides fields of seat i (a place, a clock, ...).
 */
export function tableState({ n = 4, you = 0, toMove = 0, known, hidden, pile = [], legal = [],
  status = "playing", seats = [], result = null, trumpChoice = null, ...rest } = {}) {
  known = known ?? Array.from({ length: n }, (_, i) => (i === you ? ["7C", "9D"] : []));
  hidden = hidden ?? Array.from({ length: n }, (_, i) => (i === you ? 0 : 9));
  const views = known.map((hand, i) => seat(i, hand, {
    trump: "SHDC"[i], hidden: hidden[i], hand_size: hand.length + hidden[i], ...seats[i],
  }));
  return {
    ...duelState({ you, toMove, pile, legal, ...rest }),
    n_players: n, seats: views, status, result, trump_choice: trumpChoice,
    legal_moves: you === toMove && status === "playing" ? legal : [],
  };
}
