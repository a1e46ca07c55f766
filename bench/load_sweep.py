"""Capacity sweeps with the load tool, on one topology started once (see tests/load/command.py).

    python bench/load_sweep.py ai --levels 1 2 3 4 --games 1 2 4 8 16 --duration 60
    python bench/load_sweep.py duels --duels 100 200 300 500 --duration 60
    python bench/load_sweep.py duels --duels 1000 1200 1500 --duration 300 --ramp 60 \
        --client-procs 2

`ai`: for each AI level, games against the AI on one worker process (`--pool=solo`), more and
more of them, until the AI's move p99 exceeds the level's budget + 300 ms; it prints the largest
number of concurrent games that stayed within. `duels`: live duels with think time 2-6 s until
the move round trip p99 exceeds 150 ms. Each step's full report goes to `--out` (JSON lines).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.load.command import parse_args
from tests.load.config import Config
from tests.load.report import format_report
from tests.load.run import run_load
from tests.load.topology import Topology


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["ai", "duels"])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32])
    parser.add_argument("--duels", type=int, nargs="+", default=[50, 100, 200, 300, 500])
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--client-procs", type=int, default=1)
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which each step's players connect (not measured; "
                             "60 for a thousand duels: 2,000 sockets at once is a storm)")
    parser.add_argument("--rtt-limit-ms", type=float, default=150)
    parser.add_argument("--out", default="load-sweep.jsonl")
    parser.add_argument("--database-url", help="as `python -m tests.load` (its default)")
    parser.add_argument("--redis-url", help="as `python -m tests.load` (its default)")
    options = parser.parse_args()
    passed = ["--servers", str(options.servers)]
    for name in ("database_url", "redis_url"):
        if getattr(options, name):
            passed += [f"--{name.replace('_', '-')}", getattr(options, name)]
    args = parse_args(passed)
    out = Path(options.out)
    summary = []
    with Topology(args) as topology:
        from games.ai import level_budget

        if options.mode == "ai":
            for level in options.levels:
                limit_ms = level_budget(level) * 1000 + 300
                best = 0
                for games in options.games:
                    config = Config(duels=0, ai_games=games, ai_levels=[level],
                                    duration=options.duration, client_procs=1)
                    report = run_load(config, topology.servers, topology.pids, log=lambda _: None)
                    p99 = report["ai_move_ms"].get(level, {}).get("p99")
                    within = p99 is not None and p99 <= limit_ms and report["consistency"]["ok"]
                    line = (f"level {level} (budget+300 = {limit_ms:.0f} ms): {games} games -> "
                            f"AI p99 {p99} ms, {'within' if within else 'OVER'}")
                    print(line, flush=True)
                    summary.append(line)
                    with out.open("a") as file:
                        file.write(json.dumps({"mode": "ai", "level": level, "games": games,
                                               "report": report}, default=str) + "\n")
                    if not within:
                        break
                    best = games
                summary.append(f"level {level}: {best} concurrent games within budget+300 ms")
        else:
            for duels in options.duels:
                config = Config(duels=duels, duration=options.duration,
                                client_procs=options.client_procs, ramp=options.ramp)
                report = run_load(config, topology.servers, topology.pids, log=lambda _: None)
                print(f"--- {duels} duels\n{format_report(report)}", flush=True)
                p99 = report["move_rtt_ms"]["p99"]
                line = f"{duels} duels: move round trip p99 {p99} ms"
                summary.append(line)
                with out.open("a") as file:
                    file.write(json.dumps({"mode": "duels", "duels": duels, "report": report},
                                          default=str) + "\n")
                if p99 is None or p99 > options.rtt_limit_ms:
                    break
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
