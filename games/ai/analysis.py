"""Replay analysis: the moves of a finished duel that changed the game's exact value.

Public names: ``Mistake``, ``analyse``.

Each position of the game small enough to solve within the budget (``max_cards`` cards in
play, ``seconds`` per position) is solved exactly, with the game's history counted for
repetition. A move that does not keep the position's value is reported with the value
before (the best the mover could get), the value after (what the move leaves it) and the
moves that would have kept the value. Positions the solver cannot reach in the budget are
skipped, never guessed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.ai.solver import SearchTimeout, Solution, solve
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.state import PositionKey, State


@dataclass(frozen=True, slots=True)
class Mistake:
    ply: int
    """Index of the move in the game (0 = the first move)."""
    move: Move
    value_before: int
    """For the mover, with best play: 1 win, 0 draw, -1 loss."""
    value_after: int
    """For the same player, after the move played (with best play from there)."""
    best_moves: tuple[Move, ...]


def analyse(start: State | Game, moves: Sequence[Move | str] = (), *, seconds: float = 0.5,
            max_cards: int = 14) -> list[Mistake]:
    """The value-changing moves of a duel, given a ``Game`` or a start and its moves."""
    if isinstance(start, Game):
        game = start
    else:
        game = Game(start)
        for move in moves:
            game.play(move)
    if game.n_players != 2:
        raise ValueError("only duels can be analysed exactly")
    keys = game.position_keys()
    # One walk through the game on one state: each position is solved once, with the
    # history up to it, and a move is judged by the solutions before and after it.
    state = game.start.clone()
    before = _solve(state, keys[:1], seconds, max_cards)
    mistakes = []
    for ply, code in enumerate(game.move_codes):
        mover, pile_nonempty = state.to_move, bool(state.pile_codes)
        state.apply_code(code)
        after = _solve(state, keys[: ply + 2], seconds, max_cards)
        if before is not None and code not in before.moves:
            value_after = _value_after(mover, state, after)
            if value_after is not None:
                mistakes.append(Mistake(
                    ply, Move.from_code(code, pile_nonempty), before.value, value_after,
                    tuple(Move.from_code(c, pile_nonempty) for c in before.moves)))
        before = after
    return mistakes


def _solve(state: State, history: list[PositionKey], seconds: float,
           max_cards: int) -> Solution | None:
    if state.is_over():
        return None
    in_play = sum(state.hand_size(s) for s in range(2)) + len(state.pile_codes)
    if in_play > max_cards:
        return None
    try:
        return solve(state, history, all_moves=True, deadline=time.monotonic() + seconds)
    except SearchTimeout:
        return None


def _value_after(mover: int, after: State, solution: Solution | None) -> int | None:
    """The value for ``mover`` of the position ``after`` its move."""
    outcome = after.outcome()
    if outcome is not None:
        return 0 if outcome.loser is None else (-1 if outcome.loser == mover else 1)
    if solution is None:
        return None
    return solution.value if after.to_move == mover else -solution.value
