"""Tables raced on real PostgreSQL: the last seat taken by two at once, starts asked for
together, a start racing a join, and the seating of table pools (pure, with hypothesis)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.matchmaking import pairing, services, tables
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import TableSeat
from games.matchmaking.pairing import Candidate
from games.play.models import Match, Seat
from tests.support.threads import run_together


def seats_per_user() -> Counter[int]:
    return Counter(Seat.objects.exclude(user=None).values_list("user_id", flat=True))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_two_people_taking_the_last_seat_at_once_start_one_match(make_player, round_):
    creator, second, third = make_player(), make_player(), make_player()
    racers = [make_player(), make_player()]
    table = tables.table_create(user=creator, players=4, time_control="untimed",
                                rated=False, public=True)
    tables.table_join(user=second, token=table.token)
    tables.table_join(user=third, token=table.token)

    results = run_together(
        *[(lambda user=user: tables.table_join(user=user, token=table.token, seat=3))
          for user in racers],
        expected=MatchmakingError,
    )

    matches = [r for r in results if isinstance(r, Match)]
    refusals = [r for r in results if isinstance(r, MatchmakingError)]
    assert len(matches) == 1
    assert [r.code for r in refusals] == ["gone"]
    assert Match.objects.count() == 1
    assert set(seats_per_user().values()) == {1}
    assert not TableSeat.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_starts_asked_for_together_start_one_match(make_player):
    creator = make_player()
    table = tables.table_create(user=creator, players=3, time_control="untimed",
                                rated=False, public=True)
    for seat in (1, 2):
        tables.table_fill_ai(user=creator, token=table.token, seat=seat, level=2)

    results = run_together(
        *[lambda: tables.table_start(user=creator, token=table.token)] * 4,
        expected=MatchmakingError,
    )

    assert Match.objects.count() == 1
    match = Match.objects.get()
    assert results == [match] * 4  # the later ones find it started: the same match


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_a_player_paired_in_a_pool_while_sitting_down_plays_one_game(make_player, round_):
    """A duel pairing and the start of a table race for one person: one game for them."""
    creator, second, busy, pool_mate = (make_player(rating=1500) for _ in range(4))
    table = tables.table_create(user=creator, players=3, time_control="untimed",
                                rated=False, public=True)
    tables.table_join(user=second, token=table.token)
    services.pool_join(user=pool_mate, pool="3+2")

    run_together(
        lambda: tables.table_join(user=busy, token=table.token),
        lambda: services.pool_join(user=busy, pool="3+2"),
        expected=MatchmakingError,
    )

    assert seats_per_user()[busy.pk] == 1


candidates = st.lists(
    st.builds(Candidate, key=st.integers(1, 40), rating=st.floats(800, 2600),
              waves=st.integers(0, 50)),
    max_size=24,
)


@given(candidates, st.sampled_from([3, 4]))
def test_table_pools_seat_each_player_once_at_full_tables_of_players_who_may_meet(
    found, size
):
    seated = pairing.tables(found, size)

    keys = [c.key for group in seated for c in group]
    assert len(keys) == len(set(keys))
    assert all(len(group) == size and pairing.may_sit_together(group) for group in seated)


@given(st.lists(st.floats(1400, 1600), min_size=8, max_size=8))
def test_a_pool_of_close_ratings_fills_every_table(ratings):
    found = [Candidate(i, rating) for i, rating in enumerate(ratings)]

    assert len(pairing.tables(found, 4)) == 2
