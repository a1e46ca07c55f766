"""Faults of the servers under live games: a daphne process killed, Redis restarted, and
PostgreSQL refusing connections for a while. The bots of the load tool play short games over
real sockets meanwhile; afterwards every acknowledged move is in the database exactly once,
every game replays to its stored position and result, and every game has finished."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from games.play import services
from games.play.models import Match, Status
from games.play.services import Player as Seated
from games.rules.cards import ALL_CARDS
from tests.load.consistency import check_consistency
from tests.load.players import Player, Seat, Timing
from tests.load.sessions import session_cookie
from tests.load.stats import Stats

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled"),
              pytest.mark.slow]

DUELS = 6


def short_duels(make_user, count: int, seed: int) -> list[tuple[int, str, str]]:
    """Duels from crafted deals of 5 cards each, so that a game ends in a few dozen plies."""
    rng = random.Random(seed)
    duels = []
    for _ in range(count):
        cards = [str(c) for c in rng.sample(list(ALL_CARDS), 10)]
        tpn = f"SH {''.join(cards[:5])}/{''.join(cards[5:])} - 0 -"
        a, b = make_user(), make_user()
        match = services.match_create(players=[Seated(user=a), Seated(user=b)], start_tpn=tpn,
                                      dealer=1)
        duels.append((match.pk, session_cookie(a), session_cookie(b)))
    return duels


async def play_through(duels, servers: list[str], fault, seconds: float = 120) -> Stats:
    """Play every duel to its end, with `fault()` run meanwhile (in a thread)."""
    stats = Stats()
    timing = Timing(0.05, 0.2, time.monotonic() + seconds, rematch=False, max_games=1)
    players = []
    for i, (match_id, first, second) in enumerate(duels):
        shared: dict = {}
        for seat, cookie in ((0, first), (1, second)):
            place = Seat(match_id, seat, cookie, servers, server_index=(i + seat) % 2)
            players.append(Player(place, timing, stats, random.Random(i * 2 + seat), shared))
    games = asyncio.gather(*(p.run() for p in players))
    await asyncio.to_thread(fault, stats)
    await asyncio.wait_for(games, seconds + 30)
    return stats


def when_playing(stats: Stats, moves: int = 2 * DUELS, timeout: float = 60) -> None:
    """Wait (in the fault's thread) until every player is connected and moves are flowing."""
    deadline = time.monotonic() + timeout
    while (stats.connections_open < 2 * DUELS or len(stats.acks) < moves) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)


def assert_all_finished_and_consistent(duels, stats: Stats) -> None:
    ids = {match_id for match_id, _, _ in duels}
    statuses = dict(Match.objects.filter(pk__in=ids).values_list("pk", "status"))
    assert set(statuses.values()) == {Status.FINISHED}, statuses
    report = check_consistency(stats, ids)
    assert report["ok"], report
    assert report["finished_games_checked"] == len(ids)


def test_clients_of_a_killed_daphne_reconnect_to_the_other_and_finish(
    start_asgi_server, make_user
):
    servers = [start_asgi_server(), start_asgi_server()]
    duels = short_duels(make_user, DUELS, seed=1)

    def fault(stats: Stats) -> None:
        when_playing(stats)
        servers[0].kill()

    stats = asyncio.run(play_through(duels, [str(s.extra["url"]) for s in servers], fault))

    print(f"\nkilled daphne: {stats.reconnects} reconnects, {len(stats.acks)} moves, "
          f"{len(stats.applied_unacked)} applied in flight, errors {dict(stats.errors)}")
    assert stats.reconnects >= DUELS  # one player of every duel was on the killed process
    assert_all_finished_and_consistent(duels, stats)
    assert servers[1].alive


def test_the_site_recovers_by_itself_after_redis_restarts(start_asgi_server, make_user,
                                                          own_redis):
    servers = [start_asgi_server(REDIS_URL=own_redis.url) for _ in range(2)]
    duels = short_duels(make_user, DUELS, seed=2)

    def fault(stats: Stats) -> None:
        when_playing(stats)
        own_redis.stop()
        time.sleep(2.0)
        own_redis.start()

    stats = asyncio.run(play_through(duels, [str(s.extra["url"]) for s in servers], fault))

    print(f"\nredis restart: {stats.reconnects} reconnects, {len(stats.acks)} moves, "
          f"{len(stats.applied_unacked)} applied in flight, errors {dict(stats.errors)}")
    assert_all_finished_and_consistent(duels, stats)
    assert all(s.alive for s in servers)


def test_moves_get_a_clear_error_while_postgresql_refuses_and_succeed_when_retried(
    start_asgi_server, make_user, pg_proxy, server_env
):
    name = server_env["DATABASE_URL"].rsplit("/", 1)[1]
    proxied = f"postgres://postgres@127.0.0.1:{pg_proxy.port}/{name}"
    servers = [start_asgi_server(DATABASE_URL=proxied) for _ in range(2)]
    duels = short_duels(make_user, DUELS, seed=3)

    def fault(stats: Stats) -> None:
        when_playing(stats)
        pg_proxy.refuse()
        # Refuse until a move has met the outage (its typed error) and a new connection was
        # refused, for 30 seconds at most.
        deadline = time.monotonic() + 30
        while not (stats.errors.get("move:unavailable") and pg_proxy.refused) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.05)
        pg_proxy.allow()

    stats = asyncio.run(play_through(duels, [str(s.extra["url"]) for s in servers], fault))

    print(f"\npostgres refusing: {pg_proxy.refused} connections refused, {stats.reconnects} "
          f"reconnects, {len(stats.acks)} moves, errors {dict(stats.errors)}")
    assert pg_proxy.refused > 0
    # A move sent while the database was away got the typed error, and was sent again.
    assert stats.errors.get("move:unavailable", 0) > 0
    assert_all_finished_and_consistent(duels, stats)
    assert all(s.alive for s in servers)
