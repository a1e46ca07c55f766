// Turns one position of the replay data (games.replays.selectors.replay_positions) into the
// state the game page's board draws (the shape of games.selectors.match_view), so that a
// replay looks exactly like the game page. A pure function: no rules here.

export function splitCards(text) {
  const cards = [];
  for (let i = 0; i + 1 < text.length; i += 2) cards.push(text.slice(i, i + 2));
  return cards;
}

/** The cards the move that led to this position moved: the ones it played (now on the
 *  pile) or, for a take, the ones that came into the mover's hand. */
export function movedCards(data, ply) {
  const position = data.positions[ply];
  if (!position || !position.move || ply === 0) return [];
  if (!position.move.startsWith("+")) return position.move.split("-");
  const before = new Set(splitCards(data.positions[ply - 1].hands[position.seat][0]));
  return splitCards(position.hands[position.seat][0]).filter((card) => !before.has(card));
}

export function boardState(data, ply, version) {
  const position = data.positions[ply];
  const last = ply === data.positions.length - 1;
  const over = last && !data.live && data.result !== null;
  const ended = over || position.to_move === null;
  let status = "playing";
  if (ended) status = data.result && data.result.result === "aborted" ? "aborted" : "finished";
  return {
    type: "state",
    id: data.id,
    version,
    ply,
    status,
    variant: data.variant,
    rated: data.rated,
    n_players: data.n_players,
    dealer: null,
    clock: data.clock,
    you: null,
    seats: data.seats.map((seat, index) => {
      const [cards, hidden] = position.hands[index];
      const hand = splitCards(cards);
      return {
        index,
        name: seat.name,
        kind: seat.kind,
        ai_level: null,
        trump: seat.trump,
        hand,
        hidden,
        hand_size: hand.length + hidden,
        clock_ms: position.clocks ? position.clocks[index] : null,
        connected: true,
        place: over ? seat.place : null,
        result: over ? seat.result : null,
        rating_before: seat.rating_before,
        rating_after: seat.rating_after,
      };
    }),
    pile: splitCards(position.pile),
    to_move: ended ? null : position.to_move,
    running: null,
    legal_moves: [],
    take_count: 0,
    trump_choice: null,
    moves: data.positions.slice(1, ply + 1).map((p) => [p.seat, p.move]),
    last_move: ply ? {
      ply, seat: position.seat, move: position.move,
      taken: position.move.startsWith("+") ? movedCards(data, ply) : [],
    } : null,
    draw_offer: null,
    draw_agreed: [],
    draw_awaited: [],
    can_offer_draw: false,
    rematch_offer: null,
    rematch_id: null,
    can_abort: false,
    claim_at_ms: null,
    result: over ? data.result : null,
    server_time_ms: Date.now(),
  };
}
