"""Correspondence play at scale: one player with 200 running correspondence games (and a long
record of finished live ones), on PostgreSQL.

Creates (once) a separate database holding the player, their opponents and the games, made
through the play services (`match_create`, `move_apply`: the games are real games, a few
moves into their deal), then measures in this process, through Django's test client (the
whole view: middleware, queries, template; no network):

- the "your turn" page (`/play/your-turn/`, its first page: the games waiting first) and the
  home page of that player: queries and the median and 95th percentile server time;
- the header badge's count (`games.play.your_turn.your_turn_count`, the selector the
  notifications show): its median and 95th percentile time.

Each time is given as wall time (what a request waits, PostgreSQL's work included) and as
the CPU time of this process (the Python side alone: on a loaded machine the wall time
includes waiting for a core).

    .venv/bin/python bench/correspondence_your_turn.py              # build if needed, measure
    .venv/bin/python bench/correspondence_your_turn.py --games 500 --rebuild
    .venv/bin/python bench/correspondence_your_turn.py --database-url postgres://...

The database name must contain "bench": the script fills it and never touches another.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.bench_database import ensure_database, setup_django  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/yourtrumps_corr_bench"
PLAYER = "correspondent"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 DEFAULT_URL))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--opponents", type=int, default=60)
    parser.add_argument("--finished", type=int, default=3000,
                        help="finished live games of the player, for a realistic record")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--repeat", type=int, default=40, help="runs per measure")
    return parser.parse_args()


def build(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone

    from games.play.models import Match, Seat, Status
    from games.play.services import Player, match_create, move_apply
    from games.play.time_control import CORRESPONDENCE, TimeControl
    from games.rules import State

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    if args.rebuild:
        Match.objects.all().delete()
        users.all().delete()
    if users.filter(username=PLAYER).exists():
        return
    started = time.perf_counter()
    rng = random.Random(7)
    player = users.create_user(PLAYER, password="bench-Xk39-long")
    opponents = [users.create_user(f"opponent{i}", password="bench-Xk39-long")
                 for i in range(args.opponents)]
    now = timezone.now()
    with transaction.atomic():
        finished = Match.objects.bulk_create([
            Match(status=Status.FINISHED, seed=i, dealer=0, clock_initial=180,
                  clock_increment=2, result="decided", finished_at=now)
            for i in range(args.finished)
        ])
        Seat.objects.bulk_create([
            Seat(match=match, index=index, user=player if index == 0 else opponents[0],
                 result="win" if index == 0 else "loss")
            for match in finished for index in (0, 1)
        ])
    for i in range(args.games):
        opponent = rng.choice(opponents)
        players = [Player(user=player), Player(user=opponent)]
        rng.shuffle(players)
        control: TimeControl = rng.choice(CORRESPONDENCE)
        match = match_create(players=players, time_control=control, rated=i % 2 == 0,
                             trumps="".join(rng.sample("CDHS", 2)), now=now)
        for _ in range(rng.randrange(0, 9)):
            match.refresh_from_db()
            if match.is_over:
                break
            state = State.from_tpn(match.position_tpn)
            move = rng.choice(state.legal_moves())
            move_apply(match_id=match.pk, seat=match.to_move, move=str(move),
                       expected_ply=match.ply, now=now)
    print(f"built {args.games} correspondence games and {args.finished} finished ones in "
          f"{time.perf_counter() - started:.0f} s")


def _stats(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms"


def _counter(queries: list[str]):  # type: ignore[no-untyped-def]
    def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        queries.append(sql)
        return execute(sql, params, many, context)

    return count


def measure(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from games.play.your_turn import correspondence_games, your_turn_count

    player = get_user_model().objects.get(username=PLAYER)
    page = correspondence_games(user_id=player.pk)
    waiting = your_turn_count(user_id=player.pk)
    print(f"player {PLAYER}: {page.total} correspondence games running, {waiting} waiting "
          f"for their move; {len(page.games)} on the first page of {page.pages}")
    client = Client()
    client.force_login(player)
    for path in ("/play/your-turn/", "/"):
        client.get(path)  # warm: templates, connections
        queries: list[str] = []
        with connection.execute_wrapper(_counter(queries)):
            response = client.get(path)
        assert response.status_code == 200, response.status_code
        times, cpu = [], []
        for _ in range(args.repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            client.get(path)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        print(f"{path:18} {len(queries)} queries, {len(response.content) // 1024} KiB: "
              f"{_stats(times)}; CPU of this process {_stats(cpu)}")
    times, cpu = [], []
    for _ in range(args.repeat * 5):
        started, started_cpu = time.perf_counter(), time.process_time()
        your_turn_count(user_id=player.pk)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    print(f"{'badge count':18} 1 query: {_stats(times)}; CPU of this process {_stats(cpu)}")


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    setup_django(args.database_url)
    build(args)
    measure(args)


if __name__ == "__main__":
    main()
