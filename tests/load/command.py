"""The load tool: many bots playing real games over the match sockets of real servers.

    python -m tests.load --duels 500 --duration 300 --think 2 6
    python -m tests.load --duels 0 --ai-games 4 --ai-level 1 --duration 120
    python -m tests.load --duels 500 --duration 300 --ramp 60 --hostile 0.1
    python -m tests.load --duels 500 --duration 300 --ramp 60 --hostile 0.1 --hostile-nice 19
    python -m tests.load --duels 0 --tables 100 --duration 60
    python -m tests.load --duels 0 --ai-tables 100 --think 1 3 --duration 60

By default it starts its own production topology on this machine (`--servers` daphne processes
and one Celery worker, `DJANGO_ENV=production`) on its own database (`--database-url`, created
and migrated if missing) and its own Redis database index, and stops them at the end. Users and
matches are created through the ORM and services (the pairing pages are tested elsewhere); every
move goes over a real socket. The two players of a duel connect to different servers, so every
move crosses processes through Redis.

With `--hostile 0.1` one socket in ten is hostile (`tests.load.hostile`): it sends junk on
match, lobby and site sockets and unknown routes; the honest players' figures are reported
apart from it, and the servers' logs are searched for server errors. The hostile sockets run
in a client process of their own; `--hostile-nice 19` runs it at the lowest CPU priority, a
stand-in for an attacker on another machine (the honest clients and the servers keep their
normal priority), and the report gives its CPU apart.

It prints connections held, moves per second, the move round trip (sent -> "ok") and the
delivery to the opponent (sent -> the opponent's new state) at p50/p95/p99, the AI's move
latency per level, errors, memory and CPU of each server process, and the consistency check:
every move a client saw acknowledged is in the database exactly once, every match's moves are
plies 1..n without gaps or repeats and replay to its stored position, and every finished game
replays to its stored result.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tests.load.config import Config
from tests.load.report import format_report
from tests.load.run import run_load
from tests.load.topology import Topology


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duels", type=int, default=10)
    parser.add_argument("--ai-games", type=int, default=0)
    parser.add_argument("--ai-level", type=int, action="append", dest="ai_levels")
    parser.add_argument("--tables", type=int, default=0, help="tables of four people")
    parser.add_argument("--ai-tables", type=int, default=0,
                        help="tables of one person and three AI seats")
    parser.add_argument("--table-ai-level", type=int, default=3,
                        help="the level of the AI seats at --ai-tables")
    parser.add_argument("--duration", type=float, default=20.0,
                        help="seconds of play measured (after the ramp)")
    parser.add_argument("--hostile", type=float, default=0.0, metavar="SHARE",
                        help="the share of all sockets that are hostile (0.1: one in ten sends "
                             "junk: bad JSON, wrong types, floods, huge frames, unknown routes)")
    parser.add_argument("--hostile-nice", type=int, default=0, metavar="N",
                        help="run the hostile client process at niceness N (19: the lowest "
                             "CPU priority), a stand-in for an attacker on another machine: "
                             "on one machine its junk is made on the cores that time the "
                             "honest players and run the servers, which keep their normal "
                             "priority (default 0: the same priority as everything else)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the players connect (not measured)")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 6.0),
                        metavar=("MIN", "MAX"), help="seconds a bot thinks per move")
    parser.add_argument("--clock", default="600+5", help="'initial+increment' s, or 'none'")
    parser.add_argument("--casual", action="store_true", help="unrated duels")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes to start")
    parser.add_argument("--port", type=int, default=None,
                        help="the first daphne's port, the next ones after it (default: free "
                             "ports the system picks)")
    parser.add_argument("--url", action="append", help="use running servers instead")
    parser.add_argument("--worker-args", default="--pool=solo --concurrency=1",
                        help="Celery worker options (default: one worker process, on both "
                             "the default and the slow queue; -Q NAME for one of them)")
    parser.add_argument("--no-worker", action="store_true")
    parser.add_argument("--client-procs", type=int, default=1)
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/yourtrumps_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--conn-max-age", default="60",
                        help="DB_CONN_MAX_AGE of the servers (seconds; 0: a connection per query)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the report to this file")
    return parser.parse_args(argv)


def config_of(args: argparse.Namespace) -> Config:
    return Config(
        duels=args.duels, ai_games=args.ai_games, ai_levels=args.ai_levels or [1],
        duration=args.duration, think_min=args.think[0], think_max=args.think[1],
        clock=None if args.clock == "none" else args.clock, rated=not args.casual,
        client_procs=args.client_procs, seed=args.seed, ramp=args.ramp, hostile=args.hostile,
        hostile_nice=args.hostile_nice,
        tables=args.tables, ai_tables=args.ai_tables, table_ai_level=args.table_ai_level,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    config = config_of(args)
    with Topology(args) as topology:
        print(f"servers: {', '.join(topology.servers)} (logs in {topology.logs})")
        report = run_load(config, topology.servers, topology.pids,
                          logs=None if args.url else topology.logs)
        report["process_logs"] = str(topology.logs)
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=str))
    return 0 if report["consistency"]["ok"] else 1
