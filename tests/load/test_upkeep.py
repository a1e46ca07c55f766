"""The load tool's care of its database (`tests.load.upkeep`), on the tests' PostgreSQL."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from games.play.models import Match
from tests.load.upkeep import Vacuuming, autovacuum_on, churned_tables


def _vacuum_count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = %s",
                       [table])
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_the_churned_tables_are_vacuumed_at_the_pace_while_entered() -> None:
    table = Match._meta.db_table
    assert table in churned_tables()
    before = _vacuum_count(table)
    with Vacuuming(naptime=0.2, needed=True) as vacuuming:
        time.sleep(1.0)
    passes = vacuuming.passes
    assert passes >= 2
    deadline = time.monotonic() + 10  # the server's statistics arrive within a second or so
    while _vacuum_count(table) < before + passes and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _vacuum_count(table) >= before + passes
    time.sleep(0.5)
    assert vacuuming.passes == passes  # and nothing after the exit
    assert "vacuumed" in vacuuming.describe()


@pytest.mark.django_db(transaction=True)
def test_where_the_server_runs_autovacuum_the_run_leaves_it_to_it() -> None:
    with Vacuuming(naptime=0.1) as vacuuming:
        time.sleep(0.3)
    assert vacuuming.needed is (not autovacuum_on())
    assert (vacuuming.passes == 0) is autovacuum_on()
