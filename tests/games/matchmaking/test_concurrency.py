"""Pairing processes racing each other on real PostgreSQL never pair a player twice.

Each thread has its own database connection, as separate daphne processes or workers would;
a barrier releases them together."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from games.matchmaking import services
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Pool, PoolEntry
from games.play.models import Match, Seat
from tests.support.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def seats_per_user() -> Counter[int]:
    return Counter(Seat.objects.values_list("user_id", flat=True))


def test_four_waves_of_one_pool_at_once_pair_each_player_once(make_player):
    now = timezone.now()
    Pool.objects.create(key="3+2")
    users = [make_player(rating=1500 + 7 * i) for i in range(24)]
    for user in users:
        PoolEntry.objects.create(user=user, pool_id="3+2", rating=1500, joined_at=now,
                                 alive_until=now + timedelta(minutes=5))

    results = run_together(*[lambda: services.pool_wave(pool="3+2", force=True)] * 4)

    assert not [r for r in results if isinstance(r, Exception)]
    assert Match.objects.count() == 12
    assert set(seats_per_user().values()) == {1}
    assert not PoolEntry.objects.exists()


def test_joins_racing_in_one_pool_make_disjoint_pairs(make_player):
    users = [make_player(rating=1500) for _ in range(16)]

    results = run_together(*[
        (lambda user=user: services.pool_join(user=user, pool="1+1")) for user in users
    ])

    assert not [r for r in results if isinstance(r, Exception)]
    assert max(seats_per_user().values()) == 1
    # Everyone who is not in a match still waits: nobody is lost.
    assert Seat.objects.count() + PoolEntry.objects.count() == 16


@pytest.mark.parametrize("round_", range(5))
def test_a_seek_accepted_while_a_wave_pairs_its_creator_makes_one_match(make_player, round_):
    creator, pool_mate, acceptor = make_player(), make_player(), make_player()
    seek = services.seek_create(user=creator, time_control="5+3", rated=True)
    now = timezone.now()
    Pool.objects.create(key="3+2")
    for user in (creator, pool_mate):
        PoolEntry.objects.create(user=user, pool_id="3+2", rating=1500, joined_at=now,
                                 alive_until=now + timedelta(minutes=5))

    results = run_together(
        lambda: services.pool_wave(pool="3+2", force=True),
        lambda: services.seek_accept(user=acceptor, seek_id=seek.pk),
    )

    assert not [r for r in results if isinstance(r, Exception)
                and not isinstance(r, MatchmakingError)]
    assert Match.objects.count() == 1
    assert seats_per_user()[creator.pk] == 1
