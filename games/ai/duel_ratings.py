"""The AI levels' duel ratings measured in the arena: each level plays the next in duels
(``run_arena``: every deal in both seatings), and the rating gaps the arena gives (by the
share of games each won, on the duel's Glicko display scale) are chained from level 1 up.
The chain is anchored where ``LEVEL_RATINGS`` is: level 2, greedy play, at 1500, a
newcomer's rating. ``manage.py ai_accounts --arena-deals N`` seeds the levels' accounts
with them (docs/api.md, "The AI on the rating scale")."""

from __future__ import annotations

import itertools

from games.ai.arena import run_arena
from games.ai.levels import LEVEL_RATINGS, LEVELS

ANCHOR_LEVEL = 2


def duel_ratings(*, deals: int, movetime: float | None = None, jobs: int = 1,
                 seed: int = 1) -> dict[int, float]:
    """Each level's duel rating from ``deals`` deals between each level and the next, at
    ``movetime`` seconds a move (None: each level's own budget)."""
    if deals < 1:
        raise ValueError(f"the arena needs at least one deal, not {deals}")
    numbers = sorted(level.number for level in LEVELS)
    chained = {numbers[0]: 0.0}
    for lower, upper in itertools.pairwise(numbers):
        report = run_arena(f"level{upper}", f"level{lower}", deals, 2, movetime, jobs, seed)
        gap, _low, _high = report.rating_gap()
        chained[upper] = chained[lower] + gap
    shift = LEVEL_RATINGS[ANCHOR_LEVEL] - chained[ANCHOR_LEVEL]
    return {number: round(rating + shift) for number, rating in chained.items()}
