"""The rating policy of the ranked duel: lichess's Glicko-2 parameters and rating periods.

Pure functions over plain values (no database); `accounts.services` stores the results.

* A new player starts at 1500 with deviation 500 and volatility 0.09; tau is 0.75.
* Every rated game is rated at once, as a rating period of its own (no batching into weekly
  periods: a player sees the new rating when the game ends).
* Time matters through fractional rating periods, as on lichess: 0.21436 periods pass per day
  (a period is about 4.7 days). Before a game, each player's deviation grows by the periods
  since their last rated game, `phi* = sqrt(phi^2 + t * sigma^2)`; a player who plays again at
  once gets no growth. The same growth is applied when a rating is *shown*, so that the
  deviation of an idle player rises and, past 110, the rating is marked provisional again.
* The deviation stays in [45, 500], the volatility at or below 0.1, the rating in [400, 4000].
* A rating is provisional while its deviation is at or above 110.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from accounts import glicko

START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
TAU = 0.75
PROVISIONAL_DEVIATION = 110.0
# How many rated games a new player's deviation takes to fall below the threshold, as the
# pages tell it: the fewest against established opponents, the most against other newcomers
# (played at once, wins and losses alternating; `tests/accounts/test_ratings.py` replays both).
ESTABLISHED_AFTER_GAMES = (11, 16)
RATING_PERIODS_PER_DAY = 0.21436
LIMITS = glicko.Limits(
    min_rating=400.0,
    max_rating=4000.0,
    min_deviation=45.0,
    max_deviation=START_DEVIATION,
    max_volatility=0.1,
)


@dataclass(frozen=True, slots=True)
class Standing:
    """A stored rating and when it was last changed by a game (None: never)."""

    rating: float
    deviation: float
    volatility: float
    last_rated_at: datetime | None

    @classmethod
    def new(cls) -> Standing:
        return cls(START_RATING, START_DEVIATION, START_VOLATILITY, None)

    def as_glicko(self) -> glicko.Rating:
        return glicko.Rating(self.rating, self.deviation, self.volatility)


def periods_between(since: datetime | None, until: datetime) -> float:
    """Rating periods elapsed between two instants (none before a player's first game)."""
    if since is None:
        return 0.0
    days = (until - since).total_seconds() / 86400.0
    return max(days, 0.0) * RATING_PERIODS_PER_DAY


def current_deviation(standing: Standing, *, now: datetime) -> float:
    """The deviation now, grown by the inactivity since the last rated game."""
    return glicko.inflate_deviation(
        standing.as_glicko(),
        periods=periods_between(standing.last_rated_at, now),
        limits=LIMITS,
    )


def shown_change(before: float, after: float) -> int:
    """A rating change as players see it: the difference of the rounded ratings (so that
    the numbers shown before and after always add up)."""
    return round(after) - round(before)


def is_provisional(deviation: float) -> bool:
    return deviation >= PROVISIONAL_DEVIATION


def rate_duel(
    first: Standing, second: Standing, *, first_score: float, now: datetime
) -> tuple[glicko.Rating, glicko.Rating]:
    """Both players' new ratings after one game (first_score: 1 win, 0.5 draw, 0 loss)."""
    if first_score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a duel's score is 0, 0.5 or 1, not {first_score!r}")
    # Each sees the other as the other stands now: the deviation grown by their idle time.
    first_seen = glicko.Rating(first.rating, current_deviation(first, now=now), first.volatility)
    second_seen = glicko.Rating(
        second.rating, current_deviation(second, now=now), second.volatility
    )
    first_new = glicko.update(
        first.as_glicko(),
        [glicko.Result(second_seen, first_score)],
        tau=TAU,
        periods=periods_between(first.last_rated_at, now),
        limits=LIMITS,
    )
    second_new = glicko.update(
        second.as_glicko(),
        [glicko.Result(first_seen, 1.0 - first_score)],
        tau=TAU,
        periods=periods_between(second.last_rated_at, now),
        limits=LIMITS,
    )
    return first_new, second_new
