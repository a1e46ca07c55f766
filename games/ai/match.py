"""Bots by name and one game between them, with the rules that need history.

Public names: ``Bot``, ``make_bot``, ``BOT_NAMES``, ``GameRecord``, ``play_game``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai.baseline import greedy_code, random_code
from games.ai.levels import STRONGEST, choose_code
from games.ai.view import view_of
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.outcome import Outcome
from games.rules.state import State

Bot = Callable[[Game, random.Random], int]
BOT_NAMES = ("random", "greedy", *(f"level{n}" for n in range(1, STRONGEST + 1)))


def make_bot(name: str, movetime: float | None = None) -> Bot:
    """A bot from its name: ``random``, ``greedy`` or ``levelN``. With 3-4 players every
    bot is given the mover's observation only, never the true hands."""
    if name == "random":
        return lambda game, rng: random_code(view_of(game.state), rng)
    if name == "greedy":
        return lambda game, rng: greedy_code(view_of(game.state))
    if name.startswith("level") and name[5:].isdigit():
        level = int(name[5:])
        if not 1 <= level <= STRONGEST:
            raise ValueError(f"no level {level}: levels are 1..{STRONGEST}")

        def bot(game: Game, rng: random.Random) -> int:
            if game.n_players == 2:
                return choose_code(game, level, movetime=movetime, rng=rng)
            return choose_code(game.state.observation(game.state.to_move), level,
                               movetime=movetime, rng=rng)

        return bot
    raise ValueError(f"unknown bot {name!r} (one of random, greedy, level1..level{STRONGEST})")


@dataclass(frozen=True, slots=True)
class GameRecord:
    outcome: Outcome
    plies: int
    move_seconds: tuple[tuple[int, float], ...]
    """(seat, seconds) for every move."""
    codes: tuple[int, ...] = ()
    """The moves played, as codes (``Game.move_codes``)."""


def play_game(start: State, bots: Sequence[Bot], rng: random.Random) -> GameRecord:
    """Play a game from ``start``, seat ``i`` played by ``bots[i]``."""
    game = Game(start)
    times: list[tuple[int, float]] = []
    while not game.is_over():
        seat = game.state.to_move
        began = time.perf_counter()
        code = bots[seat](game, rng)
        times.append((seat, time.perf_counter() - began))
        game.play(Move.from_code(code, bool(game.state.pile_codes)))
    outcome = game.outcome()
    assert outcome is not None
    return GameRecord(outcome, game.ply, tuple(times), tuple(game.move_codes))
