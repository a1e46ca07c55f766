"""A stored puzzle proved again: does its line still hold under the exact solver?

Public names: ``puzzle_fault``.

A line holds when every move in it is legal, and at every step of the player the moves it
accepts are exactly the moves proven to win, one move up to interchangeable cards, every
other move proven not to win (``PuzzleFinder.answer``: the exact solver on small positions,
exact proofs elsewhere). The defender's replies are only played: after a proven win any
reply loses.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.ai.duel import WIN
from games.ai.puzzles.finder import PuzzleFinder
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.moves import format_move_code
from games.rules.state import State

StepText = tuple[str, Sequence[str], bool]
"""A step as stored: its move, the moves accepted, and whether the player makes it."""


def puzzle_fault(finder: PuzzleFinder, tpn: str, steps: Sequence[StepText]) -> str | None:
    """What is wrong with the puzzle of ``tpn`` and ``steps`` (the finder's trumps and
    variant must be the position's), or None if every step is proved again."""
    try:
        state = State.from_tpn(tpn, finder.strict)
    except InvalidNotationError as error:
        return f"the position does not read: {error}"
    for move, accepted, player in steps:
        if state.is_over():
            return f"{move}: the game is over before it"
        if player:
            h0, h1 = state.hand_masks
            mover = state.to_move
            me, opp = (h0, h1) if mover == 0 else (h1, h0)
            answer = finder.answer(me, opp, state.pile_codes, mover)
            if answer is None:
                values = finder.prover.solve_all(me, opp, state.pile_codes, mover) or {}
                wins = sorted(format_move_code(c) for c, v in values.items() if v == WIN)
                known = f" (the winning moves are {' '.join(wins)})" if wins else ""
                return (f"{state.tpn()}: not proven to have one winning move up to "
                        f"interchangeable cards{known}")
            winning = sorted(format_move_code(code) for code in answer[0])
            if winning != sorted(accepted):
                return (f"{state.tpn()}: the winning moves are {' '.join(winning)}, "
                        f"not {' '.join(sorted(accepted))}")
        try:
            state.apply(move)
        except (IllegalMoveError, InvalidNotationError) as error:
            return f"{move}: {error}"
    return None
