// What the game page needs to know of the acts it sends to keep none lost in flight.

/** Whether an act may be sent again after a reconnect: one that carries the ply it was made
 *  at (a move). The server refuses it at any other ply (`stale_ply`), so it applies once. */
export function carriesPly(message) {
  return Number.isInteger(message.ply);
}

/** Whether `state` shows the move `sent` (an act with `move` and `ply`) played by the viewer. */
export function playedAlready(state, sent) {
  const played = state && state.you !== null && state.moves[sent.ply];
  return Boolean(played) && played[0] === state.you && played[1] === sent.move;
}
