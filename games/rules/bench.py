"""The ``bench`` command: random playouts from seeded duel deals, timed.

Public names: ``BenchResult``, ``bench``.

Each game is a fresh 2-player deal (seed = game number, dealer alternating) played to the
end with moves drawn uniformly from the legal ones (``random_playout``), capped at the
2000-ply house rule (repetition is not tracked: a playout has no history). The time
includes the deals. ``compiled=False`` plays them with the pure Python playout (the
compiled core plays the same games, see ``games.rules.playout``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.rules.deal import deal
from games.rules.game import MOVE_LIMIT
from games.rules.playout import random_playout, random_playout_python


@dataclass(frozen=True, slots=True)
class BenchResult:
    games: int
    plies: int
    seconds: float

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    def __str__(self) -> str:
        return (f"{self.plies_per_second:.0f} plies/s {self.games_per_second:.1f} games/s "
                f"({self.plies} plies, {self.games} games in {self.seconds:.2f} s)")


def bench(seconds: float = 3.0, seed: int = 0, compiled: bool = True) -> BenchResult:
    """Play random games for about ``seconds`` of wall time on one core."""
    play = random_playout if compiled else random_playout_python
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = deal(2, seed=seed + games, dealer=games % 2)
        plies += play(state, rng, MOVE_LIMIT)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return BenchResult(games, plies, now - start)
