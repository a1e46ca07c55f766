"""Ratings from matchmaking to the end of the game: the match that finishes rates both
players in its own transaction (live play's `_finish` calls the accounts service); aborted,
casual and AI games change nothing. The expected numbers come from `accounts.ratings`, which
`tests/accounts/test_glicko.py` checks against Glickman's published example."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import ratings
from accounts.models import PlayerRating
from games.matchmaking import services
from games.play import services as play
from games.play.models import Match, Seat, SeatResult, Status
from games.play.services import Player
from games.play.time_control import TimeControl
from games.profiles.selectors import profile_rating_history
from tests.games.matchmaking.conftest import at

pytestmark = pytest.mark.django_db


def choose_trumps(match: Match, now) -> Match:
    while match.status == Status.TRUMPS:
        free = [s for s in "SHDC" if s not in match.trumps_chosen]
        match = play.match_choose_trump(match_id=match.pk, seat=match.to_move, suit=free[0],
                                        now=now).match
    return match


def standing(user) -> ratings.Standing:
    row = PlayerRating.objects.filter(user=user).first()
    if row is None:
        return ratings.Standing.new()
    return ratings.Standing(row.rating, row.deviation, row.volatility, row.last_rated_at)


def snapshot():
    return sorted(PlayerRating.objects.values_list("user_id", "rating", "deviation", "games"))


def paired(anna, boris) -> Match:
    services.pool_join(user=anna, pool="3+2", now=at(0))
    [match] = services.pool_join(user=boris, pool="3+2", now=at(1))
    return choose_trumps(match, at(2))


def test_a_rated_game_from_the_pool_finished_by_resignation_rates_both(make_player, client):
    anna, boris = make_player("anna", 1620, 80), make_player("boris", 1580, 90)
    match = paired(anna, boris)
    before = {anna.pk: standing(anna), boris.pk: standing(boris)}
    loser_seat = Seat.objects.get(match=match, user=anna).index

    play.match_resign(match_id=match.pk, seat=loser_seat, now=at(5))

    expected_boris, expected_anna = ratings.rate_duel(
        before[boris.pk], before[anna.pk], first_score=1.0, now=at(5)
    )
    anna_row, boris_row = PlayerRating.objects.get(user=anna), PlayerRating.objects.get(user=boris)
    assert anna_row.rating == pytest.approx(expected_anna.rating)
    assert boris_row.rating == pytest.approx(expected_boris.rating)
    assert anna_row.rating < 1620
    assert boris_row.rating > 1580
    assert (anna_row.games, boris_row.games) == (1, 1)
    seats = {s.user_id: s for s in Seat.objects.filter(match=match)}
    assert seats[anna.pk].result == SeatResult.LOSS
    assert seats[anna.pk].rating_before == 1620
    assert seats[anna.pk].rating_after == pytest.approx(anna_row.rating)
    # The profile's chart is fed by the rating after each rated game.
    assert [round(p.rating, 6) for p in profile_rating_history(user=boris)] == [
        round(boris_row.rating, 6)
    ]
    page = client.get(reverse("profile", args=["boris"])).content.decode()
    assert 'data-testid="rating-chart"' in page


def test_the_end_of_a_rated_game_shows_each_players_rating_change(make_player):
    anna, boris = make_player("anna", 1500, 60), make_player("boris", 1500, 60)
    match = paired(anna, boris)
    play.match_resign(match_id=match.pk, seat=0, now=at(5))

    from games.play.snapshots import match_snapshot
    from games.play.state_message import state_message

    view = state_message(snapshot=match_snapshot(match_id=match.pk), viewer_seat=0)
    changes = [(s["rating_before"], s["rating_after"]) for s in view["seats"]]
    assert all(before is not None and after is not None for before, after in changes)
    assert changes[0][1] < changes[0][0]
    assert changes[1][1] > changes[1][0]


def test_a_rated_draw_by_agreement_rates_both_as_glicko_2_says(make_player):
    anna, boris = make_player("anna", 1700, 70), make_player("boris", 1500, 120)
    match = paired(anna, boris)
    before_anna, before_boris = standing(anna), standing(boris)

    play.match_draw_offer(match_id=match.pk, seat=0, now=at(5))
    play.match_draw_accept(match_id=match.pk, seat=1, now=at(6))

    expected_anna, expected_boris = ratings.rate_duel(
        before_anna, before_boris, first_score=0.5, now=at(6)
    )
    assert PlayerRating.objects.get(user=anna).rating == pytest.approx(expected_anna.rating)
    assert PlayerRating.objects.get(user=boris).rating == pytest.approx(expected_boris.rating)
    # A draw against a weaker player costs the stronger one points, and gains the other some.
    assert PlayerRating.objects.get(user=anna).rating < 1700
    assert PlayerRating.objects.get(user=boris).rating > 1500


def test_a_draw_between_equal_newcomers_changes_no_rating_but_narrows_the_deviation(
    make_player,
):
    anna, boris = make_player("anna"), make_player("boris")
    match = paired(anna, boris)

    play.match_draw_offer(match_id=match.pk, seat=0, now=at(5))
    play.match_draw_accept(match_id=match.pk, seat=1, now=at(6))

    for row in PlayerRating.objects.filter(user__in=[anna, boris]):
        assert row.rating == pytest.approx(ratings.START_RATING)
        assert row.deviation < ratings.START_DEVIATION


def test_an_aborted_rated_game_changes_nothing(make_player):
    anna, boris = make_player("anna", 1620, 80), make_player("boris", 1580, 90)
    services.pool_join(user=anna, pool="3+2", now=at(0))
    [match] = services.pool_join(user=boris, pool="3+2", now=at(1))
    before = snapshot()

    play.match_abort(match_id=match.pk, seat=0, now=at(3))

    assert snapshot() == before
    assert not Seat.objects.filter(match=match, rating_after__isnull=False).exists()


def test_a_casual_game_from_a_seek_changes_nothing(make_player):
    anna, boris = make_player("anna", 1620, 80), make_player("boris", 1580, 90)
    seek = services.seek_create(user=anna, time_control="5+3", rated=False, now=at(0))
    match = choose_trumps(services.seek_accept(user=boris, seek_id=seek.pk, now=at(1)), at(2))
    before = snapshot()

    play.match_resign(match_id=match.pk, seat=0, now=at(5))

    assert Match.objects.get(pk=match.pk).status == Status.FINISHED
    assert snapshot() == before


def test_a_game_against_the_ai_never_changes_a_rating(make_player):
    anna = make_player("anna", 1620, 80)
    with pytest.raises(ValueError, match="rated"):
        play.match_create(players=[Player(user=anna), Player(ai_level=1)], rated=True,
                          time_control=TimeControl(180))
    match = play.match_create(players=[Player(user=anna), Player(ai_level=1)],
                              time_control=TimeControl(180), trumps="SH", now=at(0))
    before = snapshot()

    play.match_resign(match_id=match.pk, seat=0, now=at(5))

    assert snapshot() == before
