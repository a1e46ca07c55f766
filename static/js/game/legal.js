// Reading the legal moves the server sends (in notation: "9H", "QH-7D", "QH", "+3") for the
// board's clicks. Which moves are legal is the server's business; this only reads its list.

/** The cards the player may click: with `selected` (the beater chosen, waiting for the card
 *  to lay on it), that card and the ones that may follow it; else every card that starts a
 *  legal move. */
export function enabledCards(legalMoves, selected = null) {
  const out = new Set();
  if (selected) {
    out.add(selected);
    for (const move of legalMoves) {
      const [first, second] = move.split("-");
      if (first === selected && second) out.add(second);
    }
    return out;
  }
  for (const move of legalMoves) {
    if (!move.startsWith("+")) out.add(move.split("-")[0]);
  }
  return out;
}

/** The take among the legal moves ("+3"), or undefined. */
export function takeMove(legalMoves) {
  return legalMoves.find((move) => move.startsWith("+"));
}
