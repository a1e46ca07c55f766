"""The rating of 3-4 player tables: Weng and Lin's Bayesian rating, Bradley-Terry full pairs.

Pure functions over plain values (no database); the site stores the results. The duel keeps
its own Glicko-2 rating (`accounts.ratings`); a table never changes it. docs/ratings.md says
why this method, and how the numbers below were chosen.

* A rating is a normal belief about a player's skill, `mu` and `sigma`, on the `openskill`
  library's scale: a new player starts at mu 25, sigma 25/3; beta (the spread of one game's
  performance) is 25/6 and tau (the skill drift added before each game) 25/300, the
  library's defaults. The model is the library's `BradleyTerryFull`: one Bayesian update per
  table from every pair of players, a pair's result a win, a loss or (a shared place) a
  draw. docs/ratings.md says why it and not the library's default Plackett-Luce, whose
  handling of shared places would let a resigner lose a quarter of what a loser loses.
* A finished table is rated from the players' places, 1..n, where players who share a place
  have the same number (competition ranking: 1, 2, 2, 4). `outcome_places` reads them off a
  game's `Outcome`, which ranks every ending as docs/rules.md says (the order of going out, the
  loser last; a draw, a resignation or a flag share places between those still holding).
  Shared places are ties for the model: a draw is rated, as the information it is.
  An aborted game has no places and is not rated.
* Shown, a rating is `1500 + SCALE * (mu - 25)`: the mean, on the scale of the duel's
  Glicko numbers (see `SCALE`). It is provisional while sigma is at least
  `PROVISIONAL_SIGMA`, the duel's threshold (a deviation of 110) in the same points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull

from games.rules.outcome import Outcome, Termination

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
DISPLAY_CENTRE = 1500.0
SCALE = 400.0 / math.log(10.0) / (BETA * math.sqrt(2.0))
"""Display points per unit of mu (about 29.5). Between two settled players the model gives
the one ahead by `d` in mu the chance `1 / (1 + exp(-d / (beta * sqrt 2)))` of finishing
ahead; Elo and Glicko give `1 / (1 + 10 ** (-D / 400))` for `D` points. With this scale the
two agree: a 200-point gap means the same odds at a table as in the duel."""
PROVISIONAL_SIGMA = 110.0 / SCALE
"""About 3.7: the duel's provisional deviation, 110 points; a newcomer gets below it after
about 10 tables at four against settled players, 12 at three."""
MIN_SIGMA = 0.5


@dataclass(frozen=True, slots=True)
class TableRating:
    """A player's belief at tables: skill mean and standard deviation (model scale)."""

    mu: float
    sigma: float

    @classmethod
    def new(cls) -> TableRating:
        return cls(MU, SIGMA)

    @classmethod
    def of_display(cls, rating: float, deviation: float) -> TableRating:
        """The belief whose shown numbers are these (`display`, `display_deviation`): how
        the site stores a table rating."""
        return cls(MU + (rating - DISPLAY_CENTRE) / SCALE, deviation / SCALE)

    @property
    def display(self) -> float:
        """The number shown to people: about 1500 for a newcomer (see `SCALE`)."""
        return DISPLAY_CENTRE + SCALE * (self.mu - MU)

    @property
    def display_deviation(self) -> float:
        """Sigma in display points (a newcomer: about 246)."""
        return SCALE * self.sigma

    @property
    def is_provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA


def _model(tau: float) -> Any:
    # openskill's model classes are compiled and carry no type information.
    return BradleyTerryFull(mu=MU, sigma=SIGMA, beta=BETA, tau=tau, limit_sigma=True)


def check_places(places: Sequence[int]) -> None:
    """Raise ValueError unless ``places`` is a competition ranking of 3 or 4 players: every
    place in 1..n, and k players sharing place p leave places p+1..p+k-1 empty."""
    n = len(places)
    if n not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, not {n}")
    for place in places:
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= n:
            raise ValueError(f"places are whole numbers 1..{n}, got {place!r}")
        ahead = sum(1 for other in places if other < place)
        if place != ahead + 1:
            raise ValueError(f"place {place} follows {ahead} players ahead: it must be "
                             f"{ahead + 1} (players who share a place all get its number)")


def outcome_places(outcome: Outcome, n_players: int) -> tuple[int, ...] | None:
    """Each seat's place in a finished game, seat 0 first; None for an aborted game (not
    rated)."""
    if outcome.termination is Termination.ABORTED:
        return None
    return tuple(outcome.place_of(seat) for seat in range(n_players))


def table_rate(ratings: Sequence[TableRating], places: Sequence[int], *,
               tau: float = TAU) -> list[TableRating]:
    """The players' ratings after one table, in the order given; ``places[i]`` is player
    ``i``'s place (see `check_places`). ``tau`` is for the reference tests (the library's
    published examples predate its tau)."""
    check_places(places)
    if len(ratings) != len(places):
        raise ValueError(f"{len(ratings)} ratings for {len(places)} places")
    for rating in ratings:
        if not (math.isfinite(rating.mu) and math.isfinite(rating.sigma)
                and rating.sigma > 0):
            raise ValueError(f"not a rating: {rating!r}")
    model = _model(tau)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [TableRating(team[0].mu, max(MIN_SIGMA, min(SIGMA, team[0].sigma)))
            for team in rated]
