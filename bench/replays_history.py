"""Replays and histories on a big database: history query counts and times, replay load times.

Creates (once) a separate PostgreSQL database with ``--games`` finished games (100,000 by
default) -- players, seats with results and ratings, and every move of every game with its
clock times -- by bulk COPY, then measures through Django's test client (the whole view:
middleware, queries, template; no network):

- the site's history and a busy player's history, with and without filters: the number of
  queries and the median time of a page;
- the replay page of a typical and of the longest game: the median time and the bytes sent.

The games are real games: a few hundred deals are played out by a simple greedy policy with
the rules engine, and the matches reuse them (same seed, dealer and trumps, hence the same
deal) with their own players, dates and clocks.

    .venv/bin/python bench/replays_history.py                 # build if needed, then measure
    .venv/bin/python bench/replays_history.py --games 20000 --database-url postgres://...
    .venv/bin/python bench/replays_history.py --rebuild       # drop the games and build again

The database name must contain "bench": the script fills it and never touches another.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.bench_database import ensure_database, setup_django  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/yourtrumps_bench"
TIME_CONTROLS = [(60, 1), (180, 2), (300, 3), (600, 5), None]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 DEFAULT_URL))
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--templates", type=int, default=400,
                        help="distinct deals played out and reused by the matches")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--repeat", type=int, default=15, help="runs per measured page")
    parser.add_argument("--explain", action="store_true",
                        help="print the query plans of the history pages")
    parser.add_argument("--browser", action="store_true",
                        help="also time the replay and history pages in Chromium, served by "
                        "daphne on the bench database (navigation start to board drawn)")
    return parser.parse_args()


# --- the games ----------------------------------------------------------------------------------


def greedy_move(state, rng: random.Random, randomness: float):  # type: ignore[no-untyped-def]
    """A plausible move: beat with the cheapest beater, lay and lead the cheapest card,
    take only when nothing beats; a random move with the probability ``randomness``."""
    from games.rules import MoveKind

    moves = state.legal_moves()
    if rng.random() < randomness:
        return rng.choice(moves)
    trump = state.trump(state.to_move)

    def cost(card) -> tuple[int, int]:  # type: ignore[no-untyped-def]
        return (card.suit == trump, card.rank)

    def key(move) -> tuple:  # type: ignore[no-untyped-def,type-arg]
        if move.kind is MoveKind.TAKE:
            return (1, (0, 0), (0, 0))
        second = cost(move.second) if move.second is not None else (0, 0)
        return (0, cost(move.card), second)

    return min(moves, key=key)


def play_templates(count: int, seed: int) -> list[dict]:
    from games.rules import Game

    rng = random.Random(seed)
    templates = []
    while len(templates) < count:
        n = rng.choices([2, 3, 4], weights=[85, 10, 5])[0]
        trumps = "".join(rng.sample("CDHS", n))
        game = Game.new(n, seed=rng.randrange(2**62), dealer=rng.randrange(n), trumps=trumps)
        # Some players slip more than others: games from a few dozen plies to hundreds.
        randomness = rng.choice([0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9])
        while not game.is_over():
            game.play(greedy_move(game.state, rng, randomness))
        outcome = game.outcome()
        assert outcome is not None
        templates.append(
            {
                "n": n,
                "seed": game.seed,
                "dealer": game.dealer,
                "trumps": trumps,
                "deal": game.start.tpn(),
                "final": game.state.tpn(),
                "moves": [(str(m), mover) for m, mover in zip(game.moves, game.movers(),
                                                               strict=True)],
                "loser": outcome.loser,
                "termination": outcome.termination.value,
                "places": [outcome.place_of(s) for s in range(n)],
            }
        )
    return templates


def _copy(cursor, table: str, columns: list[str], rows) -> None:  # type: ignore[no-untyped-def]
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def build(args: argparse.Namespace) -> None:
    from django.db import connection

    from games.play.models import Match

    if args.rebuild:
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE games_move, games_seat, games_match CASCADE")
    existing = Match.objects.count()
    if existing >= args.games:
        print(f"{existing} games already in the database (--rebuild to start again)")
        return
    if existing:
        sys.exit(f"{existing} games in the database, fewer than {args.games}: use --rebuild")
    started = time.perf_counter()
    users = _ensure_users(args.players)
    print(f"playing {args.templates} deals out ...", flush=True)
    templates = play_templates(args.templates, seed=8)
    plies = statistics.mean(len(t["moves"]) for t in templates)
    print(f"  {time.perf_counter() - started:.0f} s; mean length {plies:.0f} plies")
    rng = random.Random(1)
    first_day = datetime(2024, 1, 1, tzinfo=UTC)
    span = 700 * 24 * 3600
    # Busy players: a few play much more than the others (as on any site).
    weights = [1.0 / (1 + i) ** 0.8 for i in range(len(users))]
    raw = connection.connection  # psycopg 3
    match_rows: list[tuple] = []
    seat_rows: list[tuple] = []
    move_buffer = io.StringIO()
    n_moves = 0
    with connection.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM games_match")
        next_id = cursor.fetchone()[0] + 1
    # Columns added to Match after this script was written: their defaults, by name.
    model_columns = {f.column: f for f in Match._meta.concrete_fields}
    extra_columns = [c for c in ("from_position",) if c in model_columns]
    extra_values = [model_columns[c].get_default() for c in extra_columns]
    # Games are created in the order they start: ids grow with the start time.
    starts = sorted(first_day + timedelta(seconds=rng.randrange(span))
                    for _ in range(args.games))
    for number in range(args.games):
        match_id = next_id + number
        t = templates[rng.randrange(len(templates))]
        n = t["n"]
        against_ai = rng.random() < 0.2
        people = rng.choices(users, weights=weights, k=n)
        while len({u for u in people}) < n:
            people = rng.choices(users, weights=weights, k=n)
        ai_seat = rng.randrange(n) if against_ai else None
        control = rng.choice(TIME_CONTROLS)
        rated = n == 2 and not against_ai and control is not None and rng.random() < 0.6
        start = starts[number]
        at = start
        clocks = [control[0] * 1000] * n if control else None
        moves = []
        for ply, (text, mover) in enumerate(t["moves"], 1):
            spent = rng.randrange(200, 6000)
            at += timedelta(milliseconds=spent)
            if clocks is not None:
                clocks[mover] = clocks[mover] - spent + control[1] * 1000
            moves.append((ply, mover, text, spent, json.dumps(clocks) if clocks else None, at))
        loser = t["loser"]
        result = "decided" if loser is not None else "draw"
        match_rows.append((*extra_values,
            match_id, "standard", rated, control[0] if control else None,
            control[1] if control else 0, True, n, "finished", t["seed"], t["dealer"],
            t["trumps"], t["deal"], t["final"], len(moves), len(moves) + 2, result, loser,
            t["termination"], start, start, at,
        ))
        for seat in range(n):
            seat_result = "draw" if loser is None else "loss" if seat == loser else "win"
            is_ai = seat == ai_seat
            rating = 1500 + rng.gauss(0, 200) if rated else None
            delta = (8 if seat_result == "win" else -8) if rated else 0
            seat_rows.append((
                match_id, seat, None if is_ai else people[seat].pk, "",
                rng.randint(1, 5) if is_ai else None, t["trumps"][seat], t["places"][seat],
                seat_result, rating, rating + delta if rated else None,
                clocks[seat] if clocks else None, 0,
            ))
        for ply, mover, text, spent, clock_json, played_at in moves:
            move_buffer.write(
                f"{match_id}\t{ply}\t{mover}\t{text}\t{spent}\t"
                f"{clock_json if clock_json else chr(92) + 'N'}\t{played_at.isoformat()}\n")
            n_moves += 1
        if len(match_rows) >= 5000 or number == args.games - 1:
            with raw.cursor() as cursor:
                _copy(cursor, "games_match", [*extra_columns,
                    "id", "variant", "rated", "clock_initial", "clock_increment", "public",
                    "n_players", "status", "seed", "dealer", "trumps_chosen", "deal_tpn",
                    "position_tpn", "ply", "version", "result", "loser_seat", "termination",
                    "created_at", "started_at", "finished_at"], match_rows)
                _copy(cursor, "games_seat", [
                    "match_id", "index", "user_id", "guest_id", "ai_level", "trump", "place",
                    "result", "rating_before", "rating_after", "clock_ms", "connections"],
                    seat_rows)
                with cursor.copy("COPY games_move (match_id, ply, seat, text, time_spent_ms,"
                                 " clocks_after, played_at) FROM STDIN") as copy:
                    copy.write(move_buffer.getvalue())
            raw.commit()
            match_rows, seat_rows = [], []
            move_buffer = io.StringIO()
            print(f"  {number + 1} games, {n_moves} moves, "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('games_match', 'id'), "
                       "(SELECT MAX(id) FROM games_match))")
        cursor.execute("ANALYZE games_match")
        cursor.execute("ANALYZE games_seat")
        cursor.execute("ANALYZE games_move")
    print(f"built {args.games} games with {n_moves} moves in "
          f"{time.perf_counter() - started:.0f} s")


def _ensure_users(count: int) -> list:  # type: ignore[type-arg]
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    have = user_model.objects.filter(username__startswith="bench").count()
    if have < count:
        user_model.objects.bulk_create(
            [user_model(username=f"bench{i:05d}", password="!") for i in range(have, count)],
            batch_size=2000,
        )
    return list(user_model.objects.filter(username__startswith="bench").order_by("username"))


# --- the measures -------------------------------------------------------------------------------


def measure(client, path: str, repeat: int) -> dict:  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()  # a full log (maxlen) would hide the new queries
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    # Read them now: every request starts by clearing the log (django.db.reset_queries).
    statements = [q["sql"] for q in queries.captured_queries]
    db_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
    assert response.status_code == 200, (path, response.status_code)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
    return {
        "queries": len(statements),
        "ms": statistics.median(times),
        "p90": sorted(times)[int(len(times) * 0.9) - 1] if len(times) > 1 else times[0],
        "bytes": len(response.content),
        "rows": response.content.decode().count('data-testid="history-row"'),
        "sql": statements,
        "db_ms": db_ms,
    }


def run_measures(args: argparse.Namespace) -> None:
    from django.db import connection
    from django.db.models import Count, Max
    from django.test import Client

    from games.play.models import Match, Seat

    client = Client()
    total = Match.objects.count()
    moves = Match.objects.aggregate(n=Count("moves"))["n"] if total < 20_000 else None
    busiest = (Seat.objects.filter(user__isnull=False).values("user__username")
               .annotate(n=Count("id")).order_by("-n").first())
    name, games_of_busiest = busiest["user__username"], busiest["n"]
    quiet = Seat.objects.filter(user__isnull=False).values("user__username").annotate(
        n=Count("id")).order_by("n").first()
    opponent = (Seat.objects.filter(match__seats__user__username=name)
                .exclude(user__username=name).exclude(user__isnull=True)
                .values("user__username").annotate(n=Count("id")).order_by("-n").first())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        size = cursor.fetchone()[0]
    print(f"\ndatabase: {total} finished games, {size}"
          + (f", {moves} moves" if moves is not None else ""))
    print(f"busiest player {name}: {games_of_busiest} games; quietest "
          f"{quiet['user__username']}: {quiet['n']}\n")

    pages = [
        ("site history, page 1", "/games/"),
        ("site history, page 400 (the last one: lists are counted to 10,000)",
         "/games/?page=400"),
        ("site history, rated 3+2 duels between people",
         "/games/?rated=rated&time_control=3%2B2&against=people&players=2"),
        ("site history, draws in March 2025",
         "/games/?result=draw&date_from=2025-03-01&date_to=2025-03-31"),
        ("site history, one player's name", f"/games/?opponent={quiet['user__username']}"),
        (f"player history ({games_of_busiest} games), page 1", f"/@/{name}/games"),
        ("player history, page 200", f"/@/{name}/games?page=200"),
        ("player history, won against one opponent",
         f"/@/{name}/games?opponent={opponent['user__username']}&result=win"),
        ("player history, against the AI, untimed",
         f"/@/{name}/games?against=ai&time_control=untimed"),
        (f"quiet player history ({quiet['n']} games)", f"/@/{quiet['user__username']}/games"),
    ]
    print(f"{'history page':66} {'queries':>7} {'rows':>5} {'median':>9} {'p90':>9} "
          f"{'db (1st)':>9}")
    for label, path in pages:
        result = measure(client, path, args.repeat)
        print(f"{label:66} {result['queries']:>7} {result['rows']:>5} "
              f"{result['ms']:>7.1f}ms {result['p90']:>7.1f}ms {result['db_ms']:>7.1f}ms")
        if args.explain:
            _explain(result["sql"])

    lengths = list(Match.objects.order_by("ply").values_list("ply", flat=True)
                   .distinct())
    median_ply = lengths[len(lengths) // 2]
    typical = Match.objects.filter(ply__gte=median_ply, n_players=2).order_by("ply").first()
    longest = Match.objects.filter(ply=Match.objects.aggregate(m=Max("ply"))["m"]).first()
    print(f"\n{'replay page':66} {'queries':>7} {'plies':>5} {'median':>9} {'p90':>9} "
          f"{'db (1st)':>9} {'bytes':>9}")
    replays = [("typical duel", typical), ("longest game", longest)]
    for label, match in replays:
        for kind, path in [("page", f"/game/{match.pk}/replay"),
                           ("json, cached per version", f"/game/{match.pk}/replay.json")]:
            result = measure(client, path, args.repeat)
            print(f"{label + ' (' + kind + ')':66} {result['queries']:>7} {match.ply:>5} "
                  f"{result['ms']:>7.1f}ms {result['p90']:>7.1f}ms {result['db_ms']:>7.1f}ms "
                  f"{result['bytes']:>9}")
    if args.browser:
        ready = "[data-testid=replay][data-ready=true]"
        browser_measures(args, [
            *[(f"replay, {label} ({match.ply} plies)", f"/game/{match.pk}/replay", ready)
              for label, match in replays],
            (f"player history ({games_of_busiest} games)", f"/@/{name}/games",
             "[data-testid=history-table]"),
            ("site history", "/games/", "[data-testid=history-table]"),
        ])


def browser_measures(args: argparse.Namespace, pages: list[tuple[str, str, str]]) -> None:
    """Time pages in Debian's Chromium: from navigation start until ``selector`` is there."""
    import shutil
    import tempfile

    from playwright.sync_api import sync_playwright

    from tests.support.processes import start_daphne

    logs = Path(tempfile.mkdtemp(prefix="bench-replays-"))
    server = start_daphne({"DJANGO_SETTINGS_MODULE": "yourtrumps_site.settings",
                           "DATABASE_URL": args.database_url, "REDIS_URL": ""}, logs)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    print(f"\n{'in Chromium, until drawn (median)':66} {'first':>9} {'again':>9}")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            for label, path, selector in pages:
                cold, warm = [], []
                for _ in range(max(3, args.repeat // 3)):
                    context = browser.new_context(base_url=str(server.extra["url"]))
                    page = context.new_page()
                    for times in (cold, warm):  # a first visit, then one with its cache
                        started = time.perf_counter()
                        page.goto(path, wait_until="commit")
                        page.wait_for_selector(selector, timeout=60_000)
                        times.append((time.perf_counter() - started) * 1000)
                    context.close()
                print(f"{label:66} {statistics.median(cold):>7.0f}ms "
                      f"{statistics.median(warm):>7.0f}ms")
            browser.close()
    finally:
        server.stop()


def _explain(statements: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in statements:
            if "games_match" not in sql or not sql.startswith("SELECT"):
                continue
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS off, TIMING off) " + sql)
            plan = "\n      ".join(row[0] for row in cursor.fetchall())
            print(f"    {sql[:140]}...\n      {plan}")


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    setup_django(args.database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    build(args)
    run_measures(args)


if __name__ == "__main__":
    main()
