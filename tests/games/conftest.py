"""Shared pieces of the tests of play: users, instants, crafted positions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.support.users import user_factory

# Seat 0 leads 7C; seat 1 beats with 8C and lays KD; seat 0 cannot beat KD and takes 3;
# seat 1 leads its last card 6D, is out and wins. Four plies: lead, beat, take, lead.
SHORT_DUEL = "SH 7C9D/6D8CKD - 0 -"
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
# Far ahead of the clock, for games with deadlines: a deadline watch running beside the tests
# (the suite's worker's or server's, on the real time) never finds them due before the test.
T_AHEAD = datetime(2099, 1, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    """An instant `seconds` after T0: the tests pass time to the services, never sleep."""
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def make_user(db):
    return user_factory("player")


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def matches_stopped(sockets_settled):
    """After a test whose matches the Celery worker plays on by itself (AI seats at a table),
    end every match still running before the database is flushed: a worker that keeps
    moving while the flush truncates the tables can deadlock it. A task that comes after
    finds its match over and writes nothing."""
    yield
    import time

    from games.play.models import Match, Move, Status

    Match.objects.filter(status__in=[Status.TRUMPS, Status.PLAYING]).update(
        status=Status.ABORTED, due_at=None)
    # A move the worker had in hand is refused or lands now: wait until the moves and the
    # matches stop changing for longer than the AI's slowest answer, briefly.
    def mark() -> tuple[int, int]:
        return Move.objects.count(), sum(Match.objects.values_list("version", flat=True))

    deadline, last, still_since = time.monotonic() + 10, mark(), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - still_since < 2.0:
        time.sleep(0.1)
        now = mark()
        if now != last:
            last, still_since = now, time.monotonic()
