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
        start_state, codes = game.start, game.move_codes
    else:
        replay = Game(start)
        for move in moves:
            replay.play(move)
        start_state, codes = start, replay.move_codes
    if start_state.n_players != 2:
        raise ValueError("only duels can be analysed exactly")
    states = [start_state.clone()]
    for code in codes:
        state = states[-1].clone()
        state.apply_code(code)
        states.append(state)
    keys = [s.key() for s in states]
    solutions: list[Solution | None] = []
    for ply, state in enumerate(states):
        solutions.append(_solve(state, keys[: ply + 1], seconds, max_cards))
    mistakes = []
    for ply, code in enumerate(codes):
        before = solutions[ply]
        if before is None or code in before.moves:
            continue
        after = _value_after(states[ply], states[ply + 1], solutions[ply + 1])
        if after is None:
            continue
        pile_nonempty = bool(states[ply].pile_codes)
        mistakes.append(Mistake(ply, Move.from_code(code, pile_nonempty), before.value, after,
                                tuple(Move.from_code(c, pile_nonempty) for c in before.moves)))
    return mistakes


def _solve(state: State, history: list[PositionKey], seconds: float,
           max_cards: int) -> Solution | None:
    if state.is_over():
        return None
    in_play = sum(state.hand_size(s) for s in range(2)) + len(state.pile_codes)
    if in_play > max_cards:
        return None
    duel_history = [(hands[0], hands[1], pile, to_move) for hands, pile, _, to_move in history]
    try:
        return solve(state, duel_history, all_moves=True,
                     deadline=time.monotonic() + seconds)
    except SearchTimeout:
        return None


def _value_after(before: State, after: State, solution: Solution | None) -> int | None:
    """The value for the player who moved from ``before`` to ``after``."""
    outcome = after.outcome()
    if outcome is not None:
        return 0 if outcome.loser is None else (-1 if outcome.loser == before.to_move else 1)
    if solution is None:
        return None
    return solution.value if after.to_move == before.to_move else -solution.value
