"""Bots by name and one game between them, with the rules that need history.

Public names: ``Bot``, ``make_bot``, ``BOT_NAMES``, ``GameRecord``, ``play_game``.

Besides the built-in bots, ``ext:LEVEL:COMMAND`` is an engine of the engine protocol
(docs/interfaces.md) run as ``COMMAND`` in a shell, at ``LEVEL``: e.g. another checkout's AI,
``ext:4:cd ../old && python -m games.ai``, to measure a change against the code before it.
It is sent the mover's observation (3-4 players) or the position (the duel), never more.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai.baseline import greedy_code, random_code
from games.ai.levels import STRONGEST, choose_code
from games.ai.protocol import MARGIN
from games.ai.view import view_of
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.observation import Observation
from games.rules.outcome import Outcome
from games.rules.state import State

Bot = Callable[[Game, random.Random], int]
BOT_NAMES = ("random", "greedy", *(f"level{n}" for n in range(1, STRONGEST + 1)))


def _external_bot(level: int, command: str, movetime: float | None) -> Bot:
    engine: subprocess.Popen[str] | None = None

    def bot(game: Game, rng: random.Random) -> int:
        nonlocal engine
        if engine is None:
            engine = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, bufsize=1)
            assert engine.stdin is not None
            engine.stdin.write(f"setoption level {level}\n")
        assert engine.stdin is not None
        assert engine.stdout is not None
        state = game.state
        tpn = (state.tpn() if game.n_players == 2
               else Observation.of_state(state, state.to_move).tpn())
        # The engine keeps MARGIN back for the pipe: give it back, for a fair comparison.
        go = "go" if movetime is None else f"go movetime {round((movetime + MARGIN) * 1000)}"
        engine.stdin.write(f"position {tpn}\n{go}\n")
        while True:
            line = engine.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine {command!r} stopped")
            if line.startswith("bestmove "):
                return Move.parse(line.split()[1], state).code
            if line.startswith("error "):
                raise RuntimeError(f"the engine {command!r} said: {line.strip()}")

    return bot


def make_bot(name: str, movetime: float | None = None) -> Bot:
    """A bot from its name: ``random``, ``greedy``, ``levelN``, ``levelN@MS`` (the level at
    ``MS`` milliseconds a move whatever ``movetime`` says: two budgets of one level against
    each other) or ``ext:LEVEL:COMMAND``. With 3-4 players every bot is given the mover's
    observation only, never the true hands."""
    if name.startswith("ext:"):
        level_text, _, command = name[4:].partition(":")
        if not level_text.isdigit() or not command:
            raise ValueError(f"an external engine is ext:LEVEL:COMMAND, not {name!r}")
        return _external_bot(int(level_text), command, movetime)
    if name == "random":
        return lambda game, rng: random_code(view_of(game.state), rng)
    if name == "greedy":
        return lambda game, rng: greedy_code(view_of(game.state))
    level_text, at, ms_text = name[5:].partition("@")
    if name.startswith("level") and level_text.isdigit():
        level = int(level_text)
        if at:
            if not ms_text.isdigit():
                raise ValueError(f"a level at a budget is levelN@MS, not {name!r}")
            movetime = int(ms_text) / 1000
        if not 1 <= level <= STRONGEST:
            raise ValueError(f"no level {level}: levels are 1..{STRONGEST}")

        def bot(game: Game, rng: random.Random) -> int:
            if game.n_players == 2:
                return choose_code(game, level, movetime=movetime, rng=rng)
            return choose_code(Observation.of_state(game.state, game.state.to_move), level,
                               movetime=movetime, rng=rng)

        return bot
    raise ValueError(f"unknown bot {name!r} (one of random, greedy, level1..level{STRONGEST}, "
                     f"levelN@MS)")


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
