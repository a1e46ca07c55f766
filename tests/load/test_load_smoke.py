"""A small run of the load tool in the suite: 10 duels on two daphne processes and 2 games
against the AI on a real Celery worker, for 10 seconds, every move over a real socket, with
a few hostile sockets sending junk among them (`--hostile`). The
full-size runs are commands (see docs/reliability.md): this one proves the tool and the
consistency check work, and that nothing is lost or duplicated under concurrent play. A
second small run plays tables: two of four people and two of one person and three AI seats."""

from __future__ import annotations

import pytest

from tests.load.config import Config
from tests.load.report import format_report
from tests.load.run import run_load
from tests.security.test_fuzz import server_errors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_ten_duels_and_two_ai_games_for_ten_seconds(start_asgi_server, celery_worker):
    servers = [start_asgi_server(), start_asgi_server()]
    config = Config(duels=10, ai_games=2, duration=10, think_min=0.3, think_max=1.2,
                    hostile=0.15)
    pids = {s.name: s.process.pid for s in servers}

    report = run_load(config, [str(s.extra["url"]) for s in servers], pids, log=lambda _: None)

    print("\n" + format_report(report))
    assert report["consistency"]["ok"], report["consistency"]
    assert report["connections_peak"] == 22
    assert report["moves_acknowledged"] >= 50
    assert report["consistency"]["lost"] == report["consistency"]["duplicated"] == 0
    assert report["errors"] == {}
    assert report["ai_move_ms"], "the AI answered"
    assert report["delivery_to_opponent_ms"]["n"] > 0
    assert report["hostile_sockets"] == 4
    assert report["hostile"]["frames sent"] > 100
    assert "server errors (close 1011)" not in report["hostile"]
    for server in servers:
        assert server_errors(server) == []


def test_two_tables_of_four_and_two_of_one_person_with_three_ais(start_asgi_server,
                                                                 celery_worker):
    servers = [start_asgi_server(), start_asgi_server()]
    config = Config(duels=0, tables=2, ai_tables=2, table_ai_level=3, duration=10,
                    think_min=0.2, think_max=0.8, clock="600+5")
    pids = {s.name: s.process.pid for s in servers}

    report = run_load(config, [str(s.extra["url"]) for s in servers], pids, log=lambda _: None)

    print("\n" + format_report(report))
    assert report["consistency"]["ok"], report["consistency"]
    assert report["connections_peak"] == 10  # four people at each of two tables, two alone
    assert report["moves_acknowledged"] >= 30
    assert report["errors"] == {}
    assert report["table_ai_move_ms"]["n"] > 0, "the AI seats answered"
    assert report["table_ai_in_time"]["budget_ms"] == 150
    for server in servers:
        assert server_errors(server) == []
