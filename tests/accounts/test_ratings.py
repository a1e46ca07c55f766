"""The rating policy and the service that live play calls when a rated duel ends."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts import ratings
from accounts.models import PlayerRating, User
from accounts.selectors import rating_get
from accounts.services import rating_apply_duel_result, user_create


def make_user(name: str) -> User:
    return user_create(username=name, email=f"{name}@example.com", password="correct horse 77")


def test_the_starting_values_are_lichess_s() -> None:
    assert (ratings.START_RATING, ratings.START_DEVIATION, ratings.START_VOLATILITY) == (
        1500, 500, 0.09
    )
    assert ratings.TAU == 0.75
    assert ratings.is_provisional(110)
    assert not ratings.is_provisional(109.9)


def test_deviation_grows_with_inactivity_up_to_the_start_value() -> None:
    now = timezone.now()
    settled = ratings.Standing(1700, 60, 0.06, now)
    assert ratings.current_deviation(settled, now=now) == pytest.approx(60)
    a_year = ratings.current_deviation(settled, now=now + timedelta(days=365))
    assert 60 < a_year < 500
    assert ratings.current_deviation(settled, now=now + timedelta(days=10**6)) == 500


@pytest.mark.django_db
def test_a_first_rated_game_moves_both_players() -> None:
    anna, boris = make_user("anna"), make_user("boris")
    now = timezone.now()
    with transaction.atomic():
        won, lost = rating_apply_duel_result(winner=anna, loser=boris, now=now)
    assert (won.user_id, lost.user_id) == (anna.pk, boris.pk)
    assert won.rating_before == lost.rating_before == 1500
    assert won.rating_after > 1500 > lost.rating_after
    assert won.delta == -lost.delta
    assert won.provisional_before
    assert won.provisional_after
    row = PlayerRating.objects.get(user=anna)
    assert row.games == 1
    assert row.last_rated_at == now
    assert row.deviation < 500
    assert rating_get(user=anna, now=now).rating == round(won.rating_after)


@pytest.mark.django_db
def test_a_draw_between_equals_changes_no_rating() -> None:
    anna, boris = make_user("anna"), make_user("boris")
    first, second = rating_apply_duel_result(winner=anna, loser=boris, draw=True)
    assert round(first.rating_after) == round(second.rating_after) == 1500
    assert first.deviation_after < first.deviation_before


@pytest.mark.django_db
def test_users_without_a_rating_row_get_one() -> None:
    """Users made by createsuperuser or the admin have no row until their first game."""
    anna = User.objects.create_user(username="anna", password="x")
    boris = User.objects.create_user(username="boris", password="x")
    assert rating_get(user=anna).provisional
    rating_apply_duel_result(winner=boris, loser=anna)
    assert PlayerRating.objects.count() == 2


@pytest.mark.django_db
def test_many_games_end_the_provisional_mark() -> None:
    anna, boris = make_user("anna"), make_user("boris")
    now = timezone.now()
    for game in range(30):
        rating_apply_duel_result(
            winner=anna if game % 3 else boris,
            loser=boris if game % 3 else anna,
            now=now + timedelta(hours=game),
        )
    summary = rating_get(user=anna, now=now + timedelta(hours=30))
    assert not summary.provisional
    assert summary.games == 30
    assert summary.rating > 1500
    # A long absence makes the rating uncertain, hence provisional, again.
    assert rating_get(user=anna, now=now + timedelta(days=3 * 365)).provisional


def games_to_establish(opponent: ratings.Standing | None) -> int:
    """Rated games a new player plays, won and lost in turn, until the rating is established:
    against `opponent` every time, or (None) against another newcomer playing as many."""
    now = timezone.now()
    player = ratings.Standing.new()
    other = opponent or ratings.Standing.new()
    for game in range(1, 100):
        mine, theirs = ratings.rate_duel(player, other, first_score=float(game % 2), now=now)
        player = ratings.Standing(mine.rating, mine.deviation, mine.volatility, now)
        if opponent is None:
            other = ratings.Standing(theirs.rating, theirs.deviation, theirs.volatility, now)
        if not ratings.is_provisional(player.deviation):
            return game
    raise AssertionError("never established")


def test_the_games_a_rating_takes_to_become_established_are_the_ones_the_pages_say() -> None:
    fewest, most = ratings.ESTABLISHED_AFTER_GAMES
    established = ratings.Standing(1500.0, 60.0, 0.06, timezone.now())
    assert games_to_establish(established) == fewest
    assert games_to_establish(None) == most


@pytest.mark.django_db
def test_refuses_a_player_against_themself() -> None:
    anna = make_user("anna")
    with pytest.raises(ValueError, match="two different"):
        rating_apply_duel_result(winner=anna, loser=anna)


@pytest.mark.django_db(transaction=True)
def test_must_run_inside_the_match_transaction() -> None:
    anna, boris = make_user("anna"), make_user("boris")
    with pytest.raises(RuntimeError, match="inside the transaction"):
        rating_apply_duel_result(winner=anna, loser=boris)
    assert PlayerRating.objects.get(user=anna).games == 0


@pytest.mark.django_db(transaction=True)
def test_simultaneous_games_of_the_same_players_neither_deadlock_nor_lose_updates() -> None:
    """Two matches between the same two players finish at once, in opposite orders."""
    anna, boris = make_user("anna"), make_user("boris")
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def finish(winner: User, loser: User) -> None:
        try:
            with transaction.atomic():
                barrier.wait(timeout=10)
                rating_apply_duel_result(winner=winner, loser=loser)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=finish, args=(anna, boris)),
        threading.Thread(target=finish, args=(boris, anna)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    assert PlayerRating.objects.get(user=anna).games == 2
    assert PlayerRating.objects.get(user=boris).games == 2


@pytest.mark.django_db
def test_ratings_of_many_users_in_one_query(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    from accounts.selectors import rating_get_many

    anna, boris = make_user("anna"), make_user("boris")
    rating_apply_duel_result(winner=anna, loser=boris)
    with django_assert_num_queries(1):
        summaries = rating_get_many(user_ids=[anna.pk, boris.pk, 10**9])
    assert summaries[anna.pk].rating > 1500 > summaries[boris.pk].rating
    assert summaries[10**9].rating == 1500
    assert summaries[10**9].provisional
