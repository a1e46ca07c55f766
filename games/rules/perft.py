"""Perft, the move-generation check of docs/rules.md: the number of move paths of a given depth.

Public names: ``perft``, ``perft_divide``, ``perft_python``.

``perft(p, 0) = 1``; at a finished position ``perft(p, d) = 0`` for ``d > 0``; otherwise the
sum over the legal moves of ``perft(child, d - 1)``. History rules (repetition, the move
limit) are ignored: a TPN carries no history. The last ply is counted without being played
(``State.count_legal_moves``), which is what makes depth 4 of the opening cheap. The
others are played and taken back on the one state (``apply_code``/``undo``), which costs
less than a copy per move; the state is as it was when the count returns.

``perft`` runs the whole count in the compiled core when it is built
(``games.rules.native``), in one call; ``perft_python`` is the pure Python version, which
the tests hold it to.
"""

from __future__ import annotations

from games.rules.moves import format_move_code
from games.rules.native import core
from games.rules.state import State


def perft(state: State, depth: int) -> int:
    if core is None or depth < 0:
        return perft_python(state, depth)
    count: int = core.perft(state._trumps, state._hands, state._pile, state._out,
                            state.to_move, state.strict, depth)
    return count


def perft_python(state: State, depth: int) -> int:
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, got {depth}")
    if depth == 0:
        return 1
    if depth == 1:
        return state.count_legal_moves()
    total = 0
    for code in state.legal_move_codes():
        undo = state.apply_code(code)
        total += perft_python(state, depth - 1)
        state.undo(undo)
    return total


def perft_divide(state: State, depth: int) -> dict[str, int]:
    """Perft of each legal move at ``depth - 1``, keyed by the move's notation (to debug)."""
    if depth < 1:
        raise ValueError(f"perft_divide needs a depth of 1 or more, got {depth}")
    counts = {}
    for code in state.legal_move_codes():
        undo = state.apply_code(code)
        counts[format_move_code(code)] = perft(state, depth - 1)
        state.undo(undo)
    return counts
