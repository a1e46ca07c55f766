"""Shared pieces of the matchmaking tests: players with chosen ratings, a clean cache."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from accounts.models import PlayerRating

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    """An instant `seconds` after T0: the services take time as an argument."""
    return T0 + timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def _no_rate_limit_carry_over(settings):
    """Each test starts with fresh rate-limit counters (the cache is shared Redis)."""
    from django.core.cache import cache

    cache.clear()
    settings.MATCHMAKING_WAVE_SECONDS = 3.0


@pytest.fixture
def make_player(db):
    counter = iter(range(1, 100_000))

    def make(name: str | None = None, rating: float | None = None, deviation: float = 60.0):
        name = name or f"mm{next(counter)}"
        user = get_user_model().objects.create_user(name, password="pw-Xk39-long")
        if rating is not None:
            PlayerRating.objects.create(user=user, rating=rating, deviation=deviation)
        return user

    return make


def wait_until_servers_are_quiet(timeout: float = 10) -> None:
    """Wait until the servers have finished what closing their sockets made them do
    (removing pool entries and seeks, presence of seats), so that the database flush after a
    test does not deadlock with a transaction of theirs. There is no event to await from
    here: the database is polled briefly for no other busy session, a few times in a row."""
    import time

    from django.db import connection

    from games.matchmaking.models import PoolEntry, Seek
    from tests.support.settle import wait_sockets_settled

    deadline = time.monotonic() + timeout
    wait_sockets_settled(timeout)
    quiet = 0
    while quiet < 3 and time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state <> 'idle'"
            )
            busy = cursor.fetchone()[0]
        leftovers = PoolEntry.objects.exists() or Seek.objects.exists()
        quiet = quiet + 1 if not busy and not leftovers else 0
        time.sleep(0.05)
