// The player's own hand: how it is held (one row, fanned when the cards must overlap) and the
// ways to play from it beside a click. These are methods of `Board` (mixed in by board.js);
// which cards may be played they read from the server's legal moves only.

export const handMethods = {
  /** The hand of the bottom seat, drawn: held as a fan if its cards overlap to fit the row. */
  holdHand() {
    const hand = this.parts.bottom.querySelector(".hand");
    if (!hand) return;
    const cards = hand.children;
    const overlapping = cards.length > 1 && cards[1].offsetLeft - cards[0].offsetLeft < cards[0].offsetWidth;
    hand.classList.toggle("fan", overlapping);
  },
};
