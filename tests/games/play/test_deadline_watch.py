"""The deadline watch's thread: it looks again and again, and a failure (the database away)
is said once and does not stop it."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection

from games.play import deadline_watch, services
from games.play.models import Match, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.games.conftest import T0

pytestmark = pytest.mark.django_db(transaction=True)

WATCH_LOGGER = "games.play.deadline_watch"


@contextmanager
def database_refusing_connections() -> Iterator[None]:
    """The test database really away for new connections; the test's own one stays open.
    PostgreSQL lets no session shut the door of its own database: a session elsewhere does."""
    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    params = connection.get_connection_params()
    server = {key: params[key] for key in ("host", "port", "user", "password") if key in params}
    with psycopg.connect(**server, dbname="postgres", autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            yield
        finally:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")


def _wait_for(condition, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_the_watch_outlives_failures_and_says_so_once(alice, bob, settings, caplog, sent_tasks):
    settings.GAMES_DEADLINE_WATCH_SECONDS = 0.01
    # A clock that ran out long ago: the first look that reaches the database has work to do
    # (a worker's own watch, if one runs, may flag it first: the log says this one recovered).
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], trumps="SH",
                                  dealer=1, time_control=TimeControl(60), now=T0)
    caplog.set_level(logging.WARNING, logger=WATCH_LOGGER)

    def said() -> list[str]:
        return [record.getMessage() for record in caplog.records if record.name == WATCH_LOGGER]

    try:
        with database_refusing_connections():
            deadline_watch.start()
            deadline_watch.start()  # a second start while it runs is the same watch
            assert [t.name for t in threading.enumerate()].count("deadline-watch") == 1
            assert _wait_for(lambda: said() != [])
            time.sleep(0.3)  # some thirty more looks, every one failing
            assert said() == ["the deadline watch failed; it keeps trying"]
        assert _wait_for(lambda: len(said()) == 2)
        assert _wait_for(lambda: Match.objects.get(pk=match.pk).status == Status.FINISHED)
    finally:
        deadline_watch.stop()

    # Stopped means stopped: the watch's thread has ended.
    assert not any(t.name == "deadline-watch" and t.is_alive() for t in threading.enumerate())
    assert said() == ["the deadline watch failed; it keeps trying",
                      "the deadline watch works again"]
    assert Match.objects.get(pk=match.pk).termination == TerminationReason.TIMEOUT
