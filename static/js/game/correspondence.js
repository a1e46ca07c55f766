// The plain words of a correspondence game: under the hand, how long the player to act has
// (from the state's clock, which the server keeps), and, beside the board once it is not the
// viewer's turn, the way to the next game waiting for them (a link the page renders).

import { fill } from "../dom.js";
import { formatDays } from "./numbers.js";

/** Fill `part` (the side panel's `[data-part=correspondence]`) and `line` (the deadline's
 *  line under the hand, in view with it on a phone too) from the state `s`, at the server's
 *  instant `nowMs`, with the board's `labels`. */
export function showCorrespondence(part, line, s, labels, nowMs) {
  if (!part || !s || !s.correspondence) return;
  part.hidden = false;
  const next = part.querySelector("[data-part=next-game]");
  const acting = s.to_move !== null && (s.status === "playing" || s.status === "trumps");
  const mine = acting && s.you === s.to_move;
  if (next) next.hidden = !(s.you !== null && !mine);
  if (!line) return;
  line.hidden = !acting;
  if (!acting) {
    line.textContent = "";
    return;
  }
  const seat = s.seats[s.to_move];
  if (!s.clock || seat.clock_ms === null) {
    line.textContent = mine ? labels.corrNoClockYou : fill(labels.corrNoClock, { name: seat.name });
    return;
  }
  const left = s.running === s.to_move ? seat.clock_ms - (nowMs - s.server_time_ms) : seat.clock_ms;
  const time = formatDays(left, true);
  line.textContent = mine ? fill(labels.corrYouHave, { time }) : fill(labels.corrTheyHave, { name: seat.name, time });
}
