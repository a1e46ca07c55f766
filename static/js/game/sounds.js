// Which sound a new state of the game calls for, from the state before it (a pure function of
// the two states the server sent).

/** "end" when the game ends, else for a new move: "take" for a take, "turn" when it is now
 *  the viewer's turn, "move" for any other; null when nothing was played. */
export function stateSound(previous, next) {
  if (!previous) return null;
  const over = (s) => s.status === "finished" || s.status === "aborted";
  if (over(next) && !over(previous)) return "end";
  if (next.ply <= previous.ply || !next.last_move) return null;
  if (next.last_move.move.startsWith("+")) return "take";
  const mine = next.you !== null && next.you !== undefined && next.to_move === next.you;
  return mine && next.status === "playing" ? "turn" : "move";
}
