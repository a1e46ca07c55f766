"""The playing levels and the one entry point the site uses: ``choose_move``.

Public names: ``Level``, ``LEVELS``, ``STRONGEST``, ``level_budget``, ``choose_move``,
``choose_code``, ``level_for_rating``, ``LEVEL_RATINGS``, ``STAND_IN_MIN_LEVEL``.

A ``Game``'s history (``Game.position_keys()``) counts for repetition; for a ``State`` or an
``Observation`` the caller may pass the same keys as ``history``.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai.baseline import beginner_code, greedy_code
from games.ai.determinized import pimc_move
from games.ai.duel_engine import duel_move
from games.ai.duel_search import repeated_keys
from games.ai.inference import TakeEvidence, observe_game
from games.ai.view import legal_codes, view_of
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.observation import Observation
from games.rules.state import PositionKey, State


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    name: str
    seconds: float
    """The time budget of one move in the duel, for the web page (the engine may use less)."""
    description: str
    table_seconds: float
    """The budget of one move at a table of 3-4: a table of one person and three AI seats
    waits for three AI moves between two of the person's, so it is kept short."""

    def budget(self, players: int = 2) -> float:
        return self.seconds if players == 2 else self.table_seconds


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", 0.0, "plays greedily but makes a human mistake on most moves", 0.0),
    Level(2, "greedy", 0.0, "beats whenever it can with its cheapest card", 0.0),
    Level(3, "club player", 0.15, "looks three moves ahead", 0.15),
    # The duel's 0.25 s: a quarter of a worker's CPU at a second, and still about eight
    # times the nodes the expert searched at a second before the compiled core (docs/ai.md,
    # "The expert's budget"). The table's Monte Carlo is plain Python, which the compiled
    # core does not speed up.
    Level(4, "expert", 0.25, "searches deep and plays small endgames perfectly", 0.5),
)
STRONGEST = LEVELS[-1].number


def level_budget(level: int, players: int = 2) -> float:
    """The time budget, in seconds, of one move at ``level`` (1..STRONGEST) at a table of
    ``players``."""
    return _level(level).budget(players)


STAND_IN_MIN_LEVEL = 3
"""The weakest level that may take over a person's seat at a table."""
LEVEL_RATINGS: dict[int, float] = {1: 1150.0, 2: 1500.0, 3: 1575.0, 4: 1765.0}
"""About the rating (display points: the duel's Glicko scale, which the table rating
shares) at which a person plays like each level at a table of four. Calibrated from the
arena, two seats of each level at four, by the places (docs/ai.md, "Strength at tables"):
level 2 over level 1 +352, level 3 over level 2 +76, level 4 over level 2 +263; anchored at
greedy play (level 2) = 1500, a newcomer's rating."""


def level_for_rating(rating: float) -> int:
    """The level that plays about like a person rated ``rating`` (table or duel points),
    at least ``STAND_IN_MIN_LEVEL``: for the seat of a person who left a table."""
    if not math.isfinite(rating):
        raise ValueError(f"a rating is a finite number, not {rating!r}")
    eligible = [n for n in sorted(LEVEL_RATINGS) if n >= STAND_IN_MIN_LEVEL]
    return min(eligible, key=lambda n: (abs(LEVEL_RATINGS[n] - rating), -n))


def _level(level: int) -> Level:
    if not 1 <= level <= STRONGEST:
        raise ValueError(f"level must be 1..{STRONGEST}, got {level}")
    return LEVELS[level - 1]


def choose_code(
    position: State | Observation | Game,
    level: int = STRONGEST,
    *,
    movetime: float | None = None,
    rng: random.Random | None = None,
    should_stop: Callable[[], bool] | None = None,
    history: Sequence[PositionKey] = (),
    info: Callable[[str], None] | None = None,
) -> int:
    """``choose_move`` as an integer move code."""
    began = time.monotonic()
    spec = _level(level)
    rng = rng if rng is not None else random.Random()
    evidence: TakeEvidence | None = None
    if isinstance(position, Game):
        if position.is_over():
            raise ValueError("the game is over")
        if position.n_players == 2:
            history = position.position_keys()
            position = position.state
        elif level >= 3:
            # Hidden hands: from here on only the mover's view of the start and the moves,
            # which everyone saw, are read; never the game's true hands.
            mover = position.state.to_move
            position, evidence = observe_game(Observation.of_state(position.start, mover),
                                              position.move_codes)
        else:
            position = Observation.of_state(position.state, position.state.to_move)
    if position.is_over() if isinstance(position, State) else len(position.out) >= (
            position.n_players - 1):
        raise ValueError("the game is over")
    seconds = spec.budget(position.n_players) if movetime is None else max(0.0, movetime)
    view = view_of(position)
    codes = legal_codes(view)
    if len(codes) == 1:
        return codes[0]
    if level == 1:
        return beginner_code(view, rng)
    if level == 2 or seconds <= 0.0:
        return greedy_code(view)
    # The search allocates millions of small tuples: a cyclic garbage collection pass
    # over them can stall a move by a few hundred milliseconds, and they hold no cycles.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if view.n_players == 2:
            state = position if isinstance(position, State) else position.to_state()
            depth = 2 if level == 3 else 64
            return duel_move(state, seconds, repeated=repeated_keys(history),
                             should_stop=should_stop, max_depth=depth, solve=level > 3,
                             info=info, ply=max(0, len(history) - 1))
        # A rollout cannot be interrupted: keep one rollout's worth of time in hand; the
        # replay of a long game's moves (observe_game) comes out of the budget too.
        left = seconds * 0.9 - 0.02 - (time.monotonic() - began)
        return pimc_move(position, max(0.0, left), rng, should_stop,
                         max_samples=4 if level == 3 else None, evidence=evidence)
    finally:
        if collecting:
            gc.enable()


def choose_move(
    position: State | Observation | Game,
    level: int = STRONGEST,
    *,
    movetime: float | None = None,
    rng: random.Random | None = None,
    should_stop: Callable[[], bool] | None = None,
    history: Sequence[PositionKey] = (),
) -> Move:
    """A legal move for the seat to move (see the package docstring)."""
    pile_nonempty = bool(position.state.pile_codes if isinstance(position, Game)
                         else position.pile_codes)
    return Move.from_code(choose_code(position, level, movetime=movetime, rng=rng,
                                      should_stop=should_stop, history=history),
                          pile_nonempty)
