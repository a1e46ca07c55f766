"""The table rating (Weng-Lin Plackett-Luce, through `openskill`) against the library's own
published examples, and the properties a rating of places must have."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.table_ratings import (
    MIN_SIGMA,
    SIGMA,
    TAU,
    TableRating,
    check_places,
    outcome_places,
    table_rate,
)
from games.rules.outcome import Outcome, Termination

NEW = TableRating.new()


def _expect(got: list[TableRating], want: list[tuple[float, float]]) -> None:
    for rating, (mu, sigma) in zip(got, want, strict=True):
        assert rating.mu == pytest.approx(mu, abs=1e-9)
        assert rating.sigma == pytest.approx(sigma, abs=1e-9)


def test_the_manuals_example_of_four_players_in_an_order() -> None:
    """openskill.py's user manual (docs/manual.rst, "Choosing Models"): four new players,
    `rate([[a1], [b1], [c1], [d1]], rank=[4, 1, 3, 2], model=BradleyTerryFull)`. The manual
    predates the library's tau (skill drift before each game), hence tau 0 here."""
    _expect(table_rate([NEW] * 4, [4, 1, 3, 2], tau=0.0), [
        (17.09430584957905, 7.5012190693964005),
        (32.90569415042095, 7.5012190693964005),
        (22.36476861652635, 7.5012190693964005),
        (27.63523138347365, 7.5012190693964005),
    ])


def _weng_lin_bradley_terry_full(players: list[TableRating], places: list[int],
                                 tau: float) -> list[tuple[float, float]]:
    """Weng and Lin, "A Bayesian Approximation Method for Online Ranking" (JMLR 12, 2011),
    Algorithm 1 with the Bradley-Terry full-pair model of their section 3.1, one player a
    team, written from the paper: for every other player q, c = sqrt(sigma_i^2 + sigma_q^2
    + 2 beta^2), p = e^(mu_i/c) / (e^(mu_i/c) + e^(mu_q/c)), s = 1, 1/2 or 0 as i finished
    ahead, level or behind; mu_i += sigma_i^2/c (s - p); sigma_i^2 *= max(1 - sum of
    gamma (sigma_i/c)^2 p (1 - p), kappa) with gamma = sigma_i/c, kappa = 1e-4. Tau is
    added to every sigma first, a sigma never rises (the library's limit_sigma), and ours
    never falls below MIN_SIGMA."""
    beta, kappa = 25.0 / 6.0, 1e-4
    sigmas = [math.sqrt(r.sigma ** 2 + tau ** 2) for r in players]
    rated = []
    for i, me in enumerate(players):
        change, shrink = 0.0, 0.0
        for q, other in enumerate(players):
            if q == i:
                continue
            c = math.sqrt(sigmas[i] ** 2 + sigmas[q] ** 2 + 2 * beta ** 2)
            p = math.exp(me.mu / c) / (math.exp(me.mu / c) + math.exp(other.mu / c))
            s = 1.0 if places[i] < places[q] else 0.5 if places[i] == places[q] else 0.0
            change += sigmas[i] ** 2 / c * (s - p)
            shrink += (sigmas[i] / c) * (sigmas[i] / c) ** 2 * p * (1 - p)
        sigma = sigmas[i] * math.sqrt(max(1 - shrink, kappa))
        rated.append((me.mu + change, max(MIN_SIGMA, min(sigma, me.sigma))))
    return rated


def test_the_display_is_about_1500_for_a_newcomer_and_provisional() -> None:
    assert NEW.display == 1500.0
    assert NEW.is_provisional
    assert 240 < NEW.display_deviation < 250
    winner = table_rate([NEW] * 4, [1, 2, 3, 4])[0]
    assert 1725 < winner.display < 1740  # +7.9 mu: a newcomer's first games move a lot


def test_a_newcomer_settles_after_a_dozen_tables_or_so() -> None:
    rating = NEW
    settled_after = None
    for game in range(1, 41):
        field = [TableRating(25.0, 3.0)] * 3
        places = [1 + (game % 4), *[p for p in (1, 2, 3, 4) if p != 1 + game % 4]]
        rating = table_rate([rating, *field], places)[0]
        if not rating.is_provisional:
            settled_after = game
            break
    assert settled_after is not None
    assert 8 <= settled_after <= 14


@pytest.mark.parametrize(("termination", "out", "loser", "places"), [
    (Termination.NORMAL, [2, 0, 3], 1, (2, 4, 1, 3)),
    (Termination.DRAW_RULE, [2, 0, 3], 1, (2, 3, 1, 3)),
    (Termination.REPETITION, [2], None, (2, 2, 1, 2)),
    (Termination.RESIGNATION, [2], 0, (4, 2, 1, 2)),
])
def test_places_are_read_off_the_games_outcome(termination: Termination, out: list[int],
                                               loser: int | None,
                                               places: tuple[int, ...]) -> None:
    if termination is Termination.NORMAL:
        outcome = Outcome.normal(out, loser or 0)
    elif termination is Termination.DRAW_RULE:
        outcome = Outcome.draw_rule(out, 1)
    elif loser is None:
        outcome = Outcome.drawn(termination, 4, out)
    else:
        outcome = Outcome.lost_by(termination, 4, out, loser)
    assert outcome_places(outcome, 4) == places
    check_places(places)


def test_an_aborted_game_has_no_places() -> None:
    assert outcome_places(Outcome.aborted(4), 4) is None


@pytest.mark.parametrize("places", [
    [1, 2], [1, 2, 3, 4, 5], [0, 1, 2, 3], [1, 2, 3, 5], [1, 1, 2, 3], [1, 3, 3, 3],
    [2, 2, 3, 4], [1, True, 3, 4], [1, 2.0, 3, 4],
])
def test_malformed_places_are_refused(places: list[int]) -> None:
    with pytest.raises(ValueError, match=r"place|players"):
        table_rate([NEW] * len(places), places)


def test_ratings_and_places_must_match_in_number() -> None:
    with pytest.raises(ValueError, match="ratings for"):
        table_rate([NEW] * 3, [1, 2, 3, 4])


ratings = st.builds(TableRating, mu=st.floats(-10.0, 60.0),
                    sigma=st.floats(MIN_SIGMA, SIGMA))


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[TableRating], list[int]]:
    """Any table of 3 or 4 rated players and any legal places, ties included."""
    n = draw(st.sampled_from([3, 4]))
    players = draw(st.lists(ratings, min_size=n, max_size=n))
    # Scores to places: equal scores share a place (competition ranking).
    scores = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    places = [1 + sum(1 for other in scores if other > score) for score in scores]
    return players, places


@given(tables(), st.sampled_from([0.0, TAU]))
def test_the_update_is_the_papers_algorithm(table: tuple[list[TableRating], list[int]],
                                            tau: float) -> None:
    players, places = table
    _expect(table_rate(players, places, tau=tau),
            _weng_lin_bradley_terry_full(players, places, tau))


@given(st.sampled_from([3, 4]), ratings, st.integers(0, 3))
def test_a_shared_place_is_a_draw_with_each_player_sharing_it(
        n: int, rating: TableRating, loser: int) -> None:
    """Ties are pairwise draws: the last player loses as much whether the others went out
    in an order or share their places (a resignation), so resigning early saves nothing."""
    loser %= n
    ordered = [1 + (seat - loser - 1) % n for seat in range(n)]
    shared = [n if seat == loser else 1 for seat in range(n)]
    assert ordered[loser] == n
    assert table_rate([rating] * n, shared)[loser].mu == pytest.approx(
        table_rate([rating] * n, ordered)[loser].mu, abs=1e-9)


@given(tables())
def test_places_are_checked_as_generated(table: tuple[list[TableRating], list[int]]) -> None:
    check_places(table[1])


@given(tables())
def test_a_sole_winner_never_loses_and_a_sole_last_never_gains(
        table: tuple[list[TableRating], list[int]]) -> None:
    players, places = table
    new = table_rate(players, places)
    n = len(places)
    for before, after, place in zip(players, new, places, strict=True):
        if places.count(place) == 1 and place == 1:
            assert after.mu >= before.mu
        if places.count(place) == 1 and place == n:
            assert after.mu <= before.mu


@given(tables())
def test_the_precision_weighted_changes_sum_to_zero(
        table: tuple[list[TableRating], list[int]]) -> None:
    """What one player gains the others lose, each weighted by their certainty: the sum of
    the changes of mu over sigma squared (tau's drift added) is zero."""
    players, places = table
    new = table_rate(players, places)
    weighted = sum((after.mu - before.mu) / (before.sigma ** 2 + TAU ** 2)
                   for before, after in zip(players, new, strict=True))
    assert weighted == pytest.approx(0.0, abs=1e-9)


@given(tables())
def test_a_game_never_makes_a_rating_less_certain(
        table: tuple[list[TableRating], list[int]]) -> None:
    players, places = table
    for before, after in zip(players, table_rate(players, places), strict=True):
        assert MIN_SIGMA <= after.sigma <= before.sigma + 1e-12


@given(st.sampled_from([3, 4]), ratings)
def test_a_draw_between_equals_changes_no_mean(n: int, rating: TableRating) -> None:
    for after in table_rate([rating] * n, [1] * n):
        assert after.mu == pytest.approx(rating.mu, abs=1e-9)


@given(st.sampled_from([3, 4]), ratings)
def test_among_equals_a_better_place_gains_more(n: int, rating: TableRating) -> None:
    for places in {p for p in itertools.product(range(1, n + 1), repeat=n)}:
        try:
            check_places(places)
        except ValueError:
            continue
        new = table_rate([rating] * n, places)
        for i, j in itertools.permutations(range(n), 2):
            if places[i] < places[j]:
                assert new[i].mu > new[j].mu
            if places[i] == places[j]:
                assert new[i].mu == pytest.approx(new[j].mu, abs=1e-9)


@given(tables(), st.randoms(use_true_random=False))
def test_the_order_of_the_players_does_not_matter(
        table: tuple[list[TableRating], list[int]], rnd: object) -> None:
    players, places = table
    order = list(range(len(players)))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    new = table_rate(players, places)
    shuffled = table_rate([players[i] for i in order], [places[i] for i in order])
    for k, i in enumerate(order):
        assert shuffled[k].mu == pytest.approx(new[i].mu, abs=1e-9)
        assert shuffled[k].sigma == pytest.approx(new[i].sigma, abs=1e-9)
