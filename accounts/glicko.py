"""Glicko-2, the pure mathematics: no Django, no database, no clock.

This follows Mark Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf,
revision of 2013), step by step; the step numbers below are the paper's. It is written here
rather than taken from the `glicko2` package on PyPI because that package's volatility function
`f(x)` uses the player's *rating* where the paper has the *deviation* (the bug does not show in
the paper's example, whose player is rated exactly 1500), and because its `tau` is a global.

Two generalisations, both as on lichess:

* The rating period may be fractional. Glickman's step 6 grows the deviation by one period's
  volatility, `phi* = sqrt(phi^2 + sigma'^2)`; here it is `sqrt(phi^2 + t * sigma'^2)` where `t`
  is the number of periods that have passed (lichess: 0.21436 periods a day, and each game is
  rated at once, as a period of its own). `t = 1` gives the paper exactly.
* The results are clamped (`Limits`): the deviation stays in [45, 500], the volatility at or
  below 0.1, the rating in [400, 4000], so that no pathological sequence can degenerate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glickman's factor between the Glicko scale and the Glicko-2 scale
CENTRE = 1500.0
CONVERGENCE = 1e-6  # the paper's epsilon
MAX_ITERATIONS = 1000


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the usual (Glicko) scale: 1500 is average."""

    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True, slots=True)
class Result:
    """One game against one opponent: score 1 for a win, 0.5 for a draw, 0 for a loss."""

    opponent: Rating
    score: float


@dataclass(frozen=True, slots=True)
class Limits:
    min_rating: float = 400.0
    max_rating: float = 4000.0
    min_deviation: float = 45.0
    max_deviation: float = 500.0
    max_volatility: float = 0.1


NO_LIMITS = Limits(
    min_rating=-math.inf,
    max_rating=math.inf,
    min_deviation=0.0,
    max_deviation=math.inf,
    max_volatility=math.inf,
)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(*, phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x), as in the paper's 2013 revision."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (
            2.0 * (phi * phi + v + ex) ** 2
        ) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def inflate_deviation(
    player: Rating, *, periods: float, limits: Limits = NO_LIMITS
) -> float:
    """The deviation after `periods` rating periods without a game (the paper's step 6 alone)."""
    phi = player.deviation / SCALE
    phi_star = math.sqrt(phi * phi + max(periods, 0.0) * player.volatility**2)
    return _clamp(phi_star * SCALE, limits.min_deviation, limits.max_deviation)


def update(
    player: Rating,
    results: Sequence[Result],
    *,
    tau: float,
    periods: float = 1.0,
    limits: Limits = NO_LIMITS,
) -> Rating:
    """The player's rating after one rating period of `periods` length with these results."""
    if not results:
        return Rating(
            rating=player.rating,
            deviation=inflate_deviation(player, periods=periods, limits=limits),
            volatility=player.volatility,
        )
    # Step 2: onto the Glicko-2 scale.
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    opponents = [
        ((r.opponent.rating - CENTRE) / SCALE, r.opponent.deviation / SCALE, r.score)
        for r in results
    ]
    # Steps 3 and 4: the estimated variance and the estimated improvement.
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    # Step 5: the new volatility.
    sigma = _new_volatility(phi=phi, sigma=player.volatility, delta=delta, v=v, tau=tau)
    sigma = min(sigma, limits.max_volatility)
    # Step 6: the pre-period deviation (generalised to `periods` periods).
    phi_star = math.sqrt(phi * phi + max(periods, 0.0) * sigma * sigma)
    # Step 7: the new deviation and rating.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back onto the Glicko scale.
    return Rating(
        rating=_clamp(mu_new * SCALE + CENTRE, limits.min_rating, limits.max_rating),
        deviation=_clamp(phi_new * SCALE, limits.min_deviation, limits.max_deviation),
        volatility=sigma,
    )
