"""The arena: two bots over seeded deals, every deal played in every seating.

    python -m games.ai.arena A B [--deals N] [--players P] [--a-seats K] [--movetime MS]
                                 [--jobs J] [--seed S] [--cpu-clock] [--quiet]

Bots: ``random``, ``greedy``, ``level1``..``levelN``, ``levelN@MS`` (a level at its own budget
of MS milliseconds a move, e.g. ``level4@250 level4@1000``). With 2 players each deal is played
twice, seats swapped; with 3-4 players bot A plays each seat in turn against copies of B
(``--a-seats K``: A sits in K seats, B in the others, and each deal is played in every one
of the C(P, K) seatings, e.g. 6 for two against two at four). Each deal has its own dealer,
so within a deal A meets every hand and every place after the dealer.

Prints A's score (duel: win 1, draw 1/2; 3-4 players: 1 unless one of A's seats is the
loser) with its 95% confidence interval, how often A and B were the loser (with A's 95%
Wilson interval and the share that chance gives, K/P), A's losses by place after the dealer,
plies per game, and time per move (median and max) of each bot. ``--jobs`` plays games in
parallel processes. ``--cpu-clock`` counts the bots' budgets in the CPU time of their
process instead of wall-clock time, so that a machine shared with other work plays the
games an idle one would (the games take longer, not worse).

Public names: ``main``, ``ArenaReport``, ``run_arena``, ``seatings``, ``wilson_interval``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from games.ai.match import BOT_NAMES, Bot, make_bot, play_game
from games.rules.deal import deal, first_dealer

_bots: dict[str, Bot] = {}


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0% and 100%, unlike p ± z·se)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class GameResult:
    deal: int
    seats_of_a: tuple[int, ...]
    loser_place: int | None
    """The loser's place after the dealer (0: the seat that leads), None without a loser."""
    places: tuple[int, ...]
    """Each seat's place at the end (``Outcome.place_of``: shared places share a number)."""
    points: float
    a_lost: bool
    b_lost: bool
    plies: int
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]


Task = tuple[str, str, float | None, int, int, int, tuple[int, ...]]


def _play(task: Task) -> GameResult:
    name_a, name_b, movetime, players, seed, deal_index, seats_of_a = task
    key_a, key_b = f"{name_a}@{movetime}", f"{name_b}@{movetime}"
    if key_a not in _bots:
        _bots[key_a] = make_bot(name_a, movetime)
    if key_b not in _bots:
        _bots[key_b] = make_bot(name_b, movetime)
    bots = [_bots[key_a] if s in seats_of_a else _bots[key_b] for s in range(players)]
    start = deal(players, seed + deal_index)
    seating = sum(1 << s for s in seats_of_a)
    record = play_game(start, bots, random.Random((seed + deal_index) * 100 + seating))
    outcome = record.outcome
    a_lost = outcome.loser in seats_of_a
    b_lost = outcome.loser is not None and not a_lost
    dealer = first_dealer(players, seed + deal_index)
    loser_place = None if outcome.loser is None else (outcome.loser - dealer - 1) % players
    if players == 2:
        points = 0.5 if outcome.loser is None else float(not a_lost)
    else:
        points = float(not a_lost)
    a_times = tuple(t for s, t in record.move_seconds if s in seats_of_a)
    b_times = tuple(t for s, t in record.move_seconds if s not in seats_of_a)
    places = tuple(outcome.place_of(s) for s in range(players))
    return GameResult(deal_index, seats_of_a, loser_place, places, points, a_lost, b_lost,
                      record.plies, a_times, b_times)


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

    def pairs_ahead(self) -> tuple[float, int]:
        """Over every pair of an A seat and a B seat in every game: the share in which A
        finished ahead (a shared place counts half), and the number of pairs."""
        ahead, pairs = 0.0, 0
        for r in self.results:
            for a in r.seats_of_a:
                for b in range(len(r.places)):
                    if b not in r.seats_of_a:
                        pairs += 1
                        ahead += 1.0 if r.places[a] < r.places[b] else (
                            0.5 if r.places[a] == r.places[b] else 0.0)
        return (ahead / pairs if pairs else 0.5), pairs

    def rating_gap(self) -> tuple[float, float, float]:
        """A's rating minus B's, in Elo points (the duel's Glicko and the table rating's
        display share that scale), from the share of pairs A finished ahead in, with a 95%
        interval over games (pairs of one game are not independent, games nearly are)."""
        share, _ = self.pairs_ahead()
        per_game = [ArenaReport([r]).pairs_ahead()[0] for r in self.results]
        n = len(per_game)
        half = (1.96 * statistics.stdev(per_game) / math.sqrt(n)) if n > 1 else 0.5
        return _elo(share), _elo(share - half), _elo(share + half)

    def lines(self, name_a: str, name_b: str, players: int, a_seats: int = 1) -> list[str]:
        n = len(self.results)
        a_times = [t for r in self.results for t in r.a_times] or [0.0]
        b_times = [t for r in self.results for t in r.b_times] or [0.0]
        a_lost = sum(r.a_lost for r in self.results)
        b_lost = sum(r.b_lost for r in self.results)
        draws = n - a_lost - b_lost
        lo, hi = max(0.0, self.score - self.margin), min(1.0, self.score + self.margin)
        p_lost = a_lost / n
        p_margin = 1.96 * math.sqrt(p_lost * (1 - p_lost) / n) if n > 1 else 1.0
        a_lo, a_hi = wilson_interval(a_lost, n)
        b_lo, b_hi = wilson_interval(b_lost, n)
        seats = f"{a_seats} seats" if a_seats > 1 else "1 seat"
        by_place = [sum(1 for r in self.results if r.a_lost and r.loser_place == place)
                    for place in range(players)]
        share, pairs = self.pairs_ahead()
        gap, gap_lo, gap_hi = self.rating_gap()
        return [
            f"{name_a} vs {name_b}: {players} players, {name_a} in {seats}, {n} games",
            f"score of {name_a}: {self.score:.1%} (95% CI {lo:.1%} .. {hi:.1%})",
            f"{name_a} lost {a_lost} ({p_lost:.1%} ± {p_margin:.1%}), {name_b} lost {b_lost}, "
            f"no loser {draws}; chance of losing by seat: {1 / players:.1%}",
            f"{name_a} was the loser in {p_lost:.1%} of games (95% Wilson {a_lo:.1%} .. "
            f"{a_hi:.1%}; chance {a_seats / players:.1%}), {name_b} in {b_lost / n:.1%} "
            f"({b_lo:.1%} .. {b_hi:.1%}; chance {(players - a_seats) / players:.1%})",
            f"{name_a}'s losses by place after the dealer (1st leads): "
            + ", ".join(f"{place + 1}: {count}" for place, count in enumerate(by_place)),
            f"{name_a} finished ahead of {name_b} in {share:.1%} of {pairs} pairs of seats: "
            f"rating gap {gap:+.0f} (95% CI {gap_lo:+.0f} .. {gap_hi:+.0f}) Elo points",
            f"plies per game: mean {statistics.fmean(r.plies for r in self.results):.1f}, "
            f"max {max(r.plies for r in self.results)}",
            f"time per move {name_a}: median {statistics.median(a_times) * 1000:.1f} ms, "
            f"max {max(a_times) * 1000:.1f} ms",
            f"time per move {name_b}: median {statistics.median(b_times) * 1000:.1f} ms, "
            f"max {max(b_times) * 1000:.1f} ms",
        ]


def _elo(share: float) -> float:
    """The Elo difference that gives ``share`` as the expected score (clamped near 0 and 1)."""
    share = min(max(share, 0.001), 0.999)
    return 400.0 * math.log10(share / (1.0 - share))


def seatings(players: int, a_seats: int) -> list[tuple[int, ...]]:
    """Every choice of ``a_seats`` seats for bot A at a table of ``players``."""
    if not 1 <= a_seats < players:
        raise ValueError(f"bot A takes 1..{players - 1} seats of {players}, not {a_seats}")
    return list(itertools.combinations(range(players), a_seats))


def run_arena(name_a: str, name_b: str, deals: int, players: int = 2,
              movetime: float | None = None, jobs: int = 1, seed: int = 1,
              progress: bool = False, a_seats: int = 1) -> ArenaReport:
    for name in (name_a, name_b):
        make_bot(name)  # fail early on a bad name
    tasks: list[Task] = [(name_a, name_b, movetime, players, seed, d, seats)
                         for d in range(deals) for seats in seatings(players, a_seats)]
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
    parser.add_argument("--a-seats", type=int, default=1,
                        help="seats bot A takes at 3-4 players (the others are B's)")
    parser.add_argument("--movetime", type=float, default=None,
                        help="milliseconds per move for levels (default: the level's budget)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="budgets in CPU time of the process, not wall-clock time")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.cpu_clock:
        # The searches read their deadlines from time.monotonic; the worker processes are
        # forked from this one and inherit the change.
        time.monotonic = time.process_time
    try:
        movetime = None if args.movetime is None else args.movetime / 1000
        report = run_arena(args.a, args.b, args.deals, args.players, movetime, args.jobs,
                           args.seed, progress=not args.quiet, a_seats=args.a_seats)
    except ValueError as error:
        parser.error(str(error))
    for line in report.lines(args.a, args.b, args.players, args.a_seats):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
