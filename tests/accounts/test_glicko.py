"""The Glicko-2 mathematics against Glickman's worked example, and its invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts import glicko

PAPER_PLAYER = glicko.Rating(1500, 200, 0.06)
PAPER_RESULTS = [
    glicko.Result(glicko.Rating(1400, 30, 0.06), 1.0),
    glicko.Result(glicko.Rating(1550, 100, 0.06), 0.0),
    glicko.Result(glicko.Rating(1700, 300, 0.06), 0.0),
]


def test_glickmans_worked_example() -> None:
    """glicko.net/glicko/glicko2.pdf: tau 0.5 gives 1464.06 / 151.52 / 0.05999."""
    new = glicko.update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_worked_example_away_from_1500() -> None:
    """The same games shifted by 300 points give the same change: the volatility step uses
    the deviation, not the rating (the bug of the `glicko2` package on PyPI)."""
    shifted = glicko.update(
        glicko.Rating(1800, 200, 0.06),
        [
            glicko.Result(glicko.Rating(r.opponent.rating + 300, r.opponent.deviation, 0.06),
                          r.score)
            for r in PAPER_RESULTS
        ],
        tau=0.5,
    )
    assert shifted.rating == pytest.approx(1764.06, abs=0.01)
    assert shifted.deviation == pytest.approx(151.52, abs=0.01)
    assert shifted.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_games_only_grows_the_deviation() -> None:
    """Glickman's step for a player who did not compete: phi' = sqrt(phi^2 + sigma^2)."""
    new = glicko.update(PAPER_PLAYER, [], tau=0.5)
    phi = 200 / glicko.SCALE
    assert new.deviation == pytest.approx(math.sqrt(phi**2 + 0.06**2) * glicko.SCALE)
    assert new.rating == 1500
    assert glicko.inflate_deviation(PAPER_PLAYER, periods=0) == pytest.approx(200)


def test_limits_clamp_the_result() -> None:
    limits = glicko.Limits(min_deviation=160, max_deviation=500)
    new = glicko.update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5, limits=limits)
    assert new.deviation == 160


ratings_ = st.builds(
    glicko.Rating,
    rating=st.floats(600, 3000),
    deviation=st.floats(45, 500),
    volatility=st.floats(0.03, 0.1),
)


@given(player=ratings_, opponent=ratings_, periods=st.floats(0, 50))
def test_a_win_never_lowers_and_a_loss_never_raises(
    player: glicko.Rating, opponent: glicko.Rating, periods: float
) -> None:
    won = glicko.update(player, [glicko.Result(opponent, 1.0)], tau=0.75, periods=periods)
    lost = glicko.update(player, [glicko.Result(opponent, 0.0)], tau=0.75, periods=periods)
    drawn = glicko.update(player, [glicko.Result(opponent, 0.5)], tau=0.75, periods=periods)
    assert won.rating >= player.rating >= lost.rating
    assert won.rating >= drawn.rating >= lost.rating
    for new in (won, lost, drawn):
        assert math.isfinite(new.rating)
        assert new.deviation > 0
        assert new.volatility > 0
