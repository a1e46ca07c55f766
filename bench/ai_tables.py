"""How long the AI takes per move at tables of 3 and 4, level by level, within its budget.

    python bench/ai_tables.py [--games G] [--players 3 4] [--levels 1 2 3 4] [--seed S]

For each table size and level, plays G seeded games in which seat 0 is the AI at that level
(the site's call: ``choose_move(game, level)`` on the whole ``Game``, its default budget)
and the other seats play greedily, and times every move of seat 0 from the call to the
answer. Prints, per level: the budget, the number of moves, the median, the 95th and 99th
percentiles and the maximum, how many moves were over the budget by more than 50 ms, and
the share of moves answered under 5 ms (forced, or an instant level), and the median and 99th
percentile of the CPU time the process spent (which shows, on a machine shared with other
work, how much of a long wall-clock time was waiting for a core). Wall-clock figures
measured while other processes share the machine are indicative only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence

from games.ai import choose_move, level_budget
from games.ai.baseline import greedy_code
from games.ai.view import view_of
from games.rules.game import Game
from games.rules.moves import Move


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def move_times(players: int, level: int, games: int,
               seed: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each of seat 0's moves."""
    times, cpu = [], []
    for index in range(games):
        game = Game.new(players, seed=seed + index)
        rng = random.Random(seed + index)
        while not game.is_over():
            if game.state.to_move == 0:
                began, began_cpu = time.perf_counter(), time.process_time()
                move = choose_move(game, level, rng=rng)
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
            else:
                move = Move.from_code(greedy_code(view_of(game.state)),
                                      bool(game.state.pile_codes))
            game.play(move)
    return times, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/ai_tables.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4], choices=(3, 4))
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("players level budget   moves   p50 ms   p95 ms   p99 ms   max ms  over+50ms "
          "<5ms    cpu p50  cpu p99")
    for players in args.players:
        for level in args.levels:
            budget = level_budget(level, players)
            times, cpu = move_times(players, level, args.games, args.seed)
            over = sum(1 for t in times if t > budget + 0.05)
            instant = sum(1 for t in times if t < 0.005) / len(times)
            print(f"{players:7} {level:5} {budget * 1000:5.0f}ms {len(times):7} "
                  f"{statistics.median(times) * 1000:8.1f} "
                  f"{_percentile(times, 0.95) * 1000:8.1f} "
                  f"{_percentile(times, 0.99) * 1000:8.1f} {max(times) * 1000:8.1f} "
                  f"{over:10} {instant:6.0%} {statistics.median(cpu) * 1000:8.1f} "
                  f"{_percentile(cpu, 0.99) * 1000:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
