// Where each seat sits on the screen. Seats are numbered clockwise around the table, so seen
// from the bottom the next seat is on the left, then across, then on the right. The viewer
// sits at the bottom; a spectator sees seat 0 there. Only the number of seats and the
// viewer's seat are read: no rule of the game.

/** The sides of the table the opponents sit on, clockwise from the viewer, by table size. */
const SIDES = { 2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"] };

/**
 * The table as the viewer sees it: `{ bottom, opponents: [{ seat, side }] }`, the opponents
 * clockwise from the viewer (`viewer` null or undefined: a spectator).
 */
export function tablePlaces(nPlayers, viewer) {
  const sides = SIDES[nPlayers];
  if (!sides) throw new RangeError(`a table has 2 to 4 seats, not ${nPlayers}`);
  const bottom = viewer ?? 0;
  if (!Number.isInteger(bottom) || bottom < 0 || bottom >= nPlayers) {
    throw new RangeError(`seat ${viewer} is not at a table of ${nPlayers}`);
  }
  return {
    bottom,
    opponents: sides.map((side, i) => ({ seat: (bottom + 1 + i) % nPlayers, side })),
  };
}
