"""Real puzzles for the tests: small endgames the finder proves in a moment, stored as the
generator stores them."""

from __future__ import annotations

from games.ai.puzzles import find_puzzle
from games.play.models import Match
from games.puzzles.models import Puzzle
from games.puzzles.services import puzzle_store
from games.rules.state import State

# AC, then the defender's 6D-KC, then AH: three moves, themes trump_ace, last_card and
# short_line.
THREE_MOVES = "DH KC6D7H/ACAH - 1 -"
# +3, +1, 6S: take_to_win, draw_rule and short_line.
TAKE_TO_WIN = "DC JD/KD QH6S9CJS 0 -"
# 7D or 8D (interchangeable), +1, 8D, 9D-7D, 6C: the line of five moves follows the card
# the player chose.
INTERCHANGEABLE = "SC 9D9H6SJSKS/6C7D8D - 1 -"
# One move: six beats with 7S, JS, KS are all accepted.
SIX_ANSWERS = "SD 7SJSKS/TC 6DKC8CQC 0 -"


def stored(tpn: str, *, rating: float | None = None, match: Match | None = None) -> Puzzle:
    found = find_puzzle(State.from_tpn(tpn))
    assert found is not None, tpn
    puzzle = puzzle_store(found=found, match=match)
    assert puzzle is not None
    if rating is not None:
        puzzle.rating = rating
        puzzle.save(update_fields=["rating"])
    return puzzle
