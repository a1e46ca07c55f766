"""A brute-force reference: plain minimax over the rules engine's own State, no table,
no ordering, no collapsing; a position repeated on the path is a draw. Moves are played
and taken back on the one state (``apply_code`` and ``undo``)."""

from __future__ import annotations

from games.rules.state import PositionKey, State


def minimax(state: State, path: set[PositionKey] | None = None) -> int:
    """The value for the seat to move: 1 win, 0 draw, -1 loss."""
    path = set() if path is None else path
    key = state.key()
    if key in path:
        return 0
    path.add(key)
    best = -2
    for code in state.legal_move_codes():
        best = max(best, _move_value(state, code, path))
        if best == 1:
            break
    path.discard(key)
    return best


def move_values(state: State) -> dict[int, int]:
    """The value, for the mover, of each legal move."""
    return {code: _move_value(state, code, {state.key()})
            for code in state.legal_move_codes()}


def _move_value(state: State, code: int, path: set[PositionKey]) -> int:
    """The value of the move for the mover, ``path`` holding the positions above it."""
    mover = state.to_move
    undo = state.apply_code(code)
    outcome = state.outcome()
    if outcome is not None:
        value = 0 if outcome.loser is None else (1 if outcome.loser != mover else -1)
    else:
        value = -minimax(state, path)
    state.undo(undo)
    return value
