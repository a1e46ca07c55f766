"""The arena: two bots over seeded deals, every deal played in every seating.

    python -m games.ai.arena A B [--deals N] [--players P] [--movetime MS] [--jobs J]
                                 [--seed S]

Bots: ``random``, ``greedy``, ``level1``..``levelN``. With 2 players each deal is played
twice, seats swapped; with 3-4 players bot A plays each seat in turn against copies of B.
Prints A's score (duel: win 1, draw 1/2; 3-4 players: 1 unless A is the loser) with its 95%
confidence interval, how often each bot was the loser, plies per game, and time per move
(median and max) of each bot. ``--jobs`` plays games in parallel processes.

Public names: ``main``, ``ArenaReport``, ``run_arena``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from games.ai.match import BOT_NAMES, Bot, make_bot, play_game
from games.rules.deal import deal

_bots: dict[str, Bot] = {}


@dataclass(frozen=True, slots=True)
class GameResult:
    deal: int
    seat_of_a: int
    points: float
    a_lost: bool
    b_lost: bool
    plies: int
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]


def _play(task: tuple[str, str, float | None, int, int, int, int]) -> GameResult:
    name_a, name_b, movetime, players, seed, deal_index, seat_of_a = task
    key_a, key_b = f"{name_a}@{movetime}", f"{name_b}@{movetime}"
    if key_a not in _bots:
        _bots[key_a] = make_bot(name_a, movetime)
    if key_b not in _bots:
        _bots[key_b] = make_bot(name_b, movetime)
    bots = [_bots[key_a] if s == seat_of_a else _bots[key_b] for s in range(players)]
    start = deal(players, seed + deal_index)
    record = play_game(start, bots, random.Random((seed + deal_index) * 10 + seat_of_a))
    outcome = record.outcome
    a_lost = outcome.loser == seat_of_a
    b_lost = outcome.loser is not None and not a_lost
    if players == 2:
        points = 0.5 if outcome.loser is None else float(not a_lost)
    else:
        points = float(not a_lost)
    a_times = tuple(t for s, t in record.move_seconds if s == seat_of_a)
    b_times = tuple(t for s, t in record.move_seconds if s != seat_of_a)
    return GameResult(deal_index, seat_of_a, points, a_lost, b_lost, record.plies, a_times,
                      b_times)


@dataclass
class ArenaReport:
    results: list[GameResult] = field(default_factory=list)

    @property
    def score(self) -> float:
        return statistics.fmean(r.points for r in self.results)

    @property
    def margin(self) -> float:
        """Half-width of the 95% confidence interval of the score (normal approximation)."""
        n = len(self.results)
        if n < 2:
            return 1.0
        return 1.96 * statistics.stdev(r.points for r in self.results) / math.sqrt(n)

    def lines(self, name_a: str, name_b: str, players: int) -> list[str]:
        n = len(self.results)
        a_times = [t for r in self.results for t in r.a_times] or [0.0]
        b_times = [t for r in self.results for t in r.b_times] or [0.0]
        a_lost = sum(r.a_lost for r in self.results)
        b_lost = sum(r.b_lost for r in self.results)
        draws = n - a_lost - b_lost
        lo, hi = max(0.0, self.score - self.margin), min(1.0, self.score + self.margin)
        p_lost = a_lost / n
        p_margin = 1.96 * math.sqrt(p_lost * (1 - p_lost) / n) if n > 1 else 1.0
        return [
            f"{name_a} vs {name_b}: {players} players, {n} games",
            f"score of {name_a}: {self.score:.1%} (95% CI {lo:.1%} .. {hi:.1%})",
            f"{name_a} lost {a_lost} ({p_lost:.1%} ± {p_margin:.1%}), {name_b} lost {b_lost}, "
            f"no loser {draws}; chance of losing by seat: {1 / players:.1%}",
            f"plies per game: mean {statistics.fmean(r.plies for r in self.results):.1f}, "
            f"max {max(r.plies for r in self.results)}",
            f"time per move {name_a}: median {statistics.median(a_times) * 1000:.1f} ms, "
            f"max {max(a_times) * 1000:.1f} ms",
            f"time per move {name_b}: median {statistics.median(b_times) * 1000:.1f} ms, "
            f"max {max(b_times) * 1000:.1f} ms",
        ]


def run_arena(name_a: str, name_b: str, deals: int, players: int = 2,
              movetime: float | None = None, jobs: int = 1, seed: int = 1,
              progress: bool = False) -> ArenaReport:
    for name in (name_a, name_b):
        make_bot(name)  # fail early on a bad name
    tasks = [(name_a, name_b, movetime, players, seed, d, s)
             for d in range(deals) for s in range(players)]
    report = ArenaReport()
    results: Iterator[GameResult]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.imap_unordered(_play, tasks)
            _collect(report, results, len(tasks), progress)
    else:
        _collect(report, map(_play, tasks), len(tasks), progress)
    return report


def _collect(report: ArenaReport, results: Iterator[GameResult], total: int,
             progress: bool) -> None:
    for result in results:
        report.results.append(result)
        done = len(report.results)
        if progress and (done % 10 == 0 or done == total):
            print(f"  {done}/{total} games, score {report.score:.1%} ± {report.margin:.1%}",
                  file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ai.arena",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help=f"bot A ({', '.join(BOT_NAMES)})")
    parser.add_argument("b", help="bot B")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--movetime", type=float, default=None,
                        help="milliseconds per move for levels (default: the level's budget)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        movetime = None if args.movetime is None else args.movetime / 1000
        report = run_arena(args.a, args.b, args.deals, args.players, movetime, args.jobs,
                           args.seed, progress=not args.quiet)
    except ValueError as error:
        parser.error(str(error))
    for line in report.lines(args.a, args.b, args.players):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
