"""Search speed and solving times of the duel AI.

    python -m games.ai.bench [speed|solve|endgames] [--seconds S] [--per-size K]
                             [--movetime MS]

``speed``: nodes per second of the heuristic search from seeded deals, compiled (the
core's node, ``games.rules.native``) and in pure Python, and of the exact solver; then
perft (leaves per second) and random playouts (plies per second), compiled and in pure
Python. Each compiled/Python pair is measured in turn three times, and the best of the
three printed, with the ratio. ``solve``: the exact solver on K random positions of each
size from 5 to 12 cards in play: give-ups, how many retrograde analysis solved, nodes and
time (median and max). ``endgames``: the strongest level at MOVETIME per move over the
endgame data file: the share of value-keeping moves. Default: all three.

Public names: ``main``.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from games.ai.duel import DuelTable
from games.ai.endgames import load_endgames, random_endgame
from games.ai.levels import STRONGEST, choose_code
from games.ai.search import Searcher
from games.ai.solver import RETROGRADE_STATES, SearchTimeout, Solver
from games.rules.bench import bench as playout_bench
from games.rules.deal import deal
from games.rules.native import COMPILED
from games.rules.perft import perft, perft_python
from games.rules.state import State

ROUNDS = 3
OPENING = "SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -"


def _table(state: State, collapse: bool = True) -> DuelTable:
    t0, t1 = state.trumps
    return DuelTable((int(t0), int(t1)), state.strict, collapse)


def _search_rate(seconds: float, compiled: bool) -> float:
    """Nodes per second of the search over three seeded deals, ``seconds`` each."""
    nodes = 0
    spent = 0.0
    for seed in range(3):
        state = deal(2, seed)
        h0, h1 = state.hand_masks
        searcher = Searcher(_table(state), deadline=time.monotonic() + seconds,
                            compiled=compiled)
        began = time.monotonic()
        searcher.search(h0, h1, (), state.to_move)
        spent += time.monotonic() - began
        nodes += searcher.nodes
    return nodes / spent


def _perft_rate(seconds: float, compiled: bool) -> float:
    """Perft leaves per second, depth 4 of the opening of docs/rules.md, repeated."""
    state = State.from_tpn(OPENING)
    count = perft if compiled else perft_python
    leaves = 0
    began = time.monotonic()
    while True:
        leaves += count(state, 4)
        spent = time.monotonic() - began
        if spent >= seconds:
            return leaves / spent


def _playout_rate(seconds: float, compiled: bool) -> float:
    return playout_bench(seconds, compiled=compiled).plies_per_second


def _compare(name: str, unit: str, rate: Callable[[float, bool], float],
             seconds: float) -> None:
    """The best of ``ROUNDS`` rates, compiled and Python measured in turn."""
    if not COMPILED:
        print(f"{name}: the compiled core is not built; python "
              f"{rate(seconds, False):,.0f} {unit}")
        return
    best = {True: 0.0, False: 0.0}
    for _ in range(ROUNDS):
        for compiled in (True, False):
            best[compiled] = max(best[compiled], rate(seconds, compiled))
    print(f"{name}: compiled {best[True]:,.0f} {unit}, python {best[False]:,.0f} {unit}: "
          f"{best[True] / best[False]:.1f}x (best of {ROUNDS})", flush=True)


def speed(seconds: float) -> None:
    _compare("search", "nodes/s", _search_rate, seconds)
    rng = random.Random(3)
    nodes, spent = 0, 0.0
    while spent < seconds:
        state = random_endgame(rng, 9)
        me, opp = _hands(state)
        solver = Solver(_table(state, collapse=False), max_nodes=200_000)
        began = time.monotonic()
        with contextlib.suppress(SearchTimeout):
            solver.solve(me, opp, state.pile_codes, state.to_move)
        spent += time.monotonic() - began
        nodes += solver.nodes
    print(f"solver: {nodes / spent:,.0f} nodes per second")
    _compare("perft", "leaves/s", _perft_rate, seconds / 4)
    _compare("playouts", "plies/s", _playout_rate, seconds / 4)


def _hands(state: State) -> tuple[int, int]:
    h0, h1 = state.hand_masks
    return (h0, h1) if state.to_move == 0 else (h1, h0)


def solve_times(per_size: int, max_nodes: int = RETROGRADE_STATES + 1_000_000) -> None:
    """Per number of cards in play: positions tried, give-ups (``SearchTimeout``), how many
    were solved by retrograde analysis, positions enumerated or searched, and time."""
    print(f"cards | tried | give-ups | retrograde | median nodes | max nodes | median ms "
          f"| max ms  (random positions, the standard and the strict variant in turn; "
          f"nodes: positions enumerated or searched; give-up: over {max_nodes:,} nodes)")
    for n_cards in range(5, 13):
        rng = random.Random(n_cards)
        times, counts, gave_up, by_retrograde = [], [], 0, 0
        for i in range(per_size):
            state = random_endgame(rng, n_cards)
            state.strict = i % 2 == 1
            me, opp = _hands(state)
            solver = Solver(_table(state, collapse=False), max_nodes=max_nodes)
            began = time.monotonic()
            try:
                solver.solve(me, opp, state.pile_codes, state.to_move, all_moves=True)
            except SearchTimeout:
                gave_up += 1
                continue
            times.append((time.monotonic() - began) * 1000)
            counts.append(solver.nodes)
            by_retrograde += bool(solver.solved)
        if not times:
            print(f"{n_cards:5} | {per_size:5} | {gave_up:8} |")
            continue
        print(f"{n_cards:5} | {per_size:5} | {gave_up:8} | {by_retrograde:10} | "
              f"{statistics.median(counts):12,.0f} | {max(counts):9,} | "
              f"{statistics.median(times):9.1f} | {max(times):6.0f}", flush=True)


def endgames(movetime: float) -> None:
    kept = total = 0
    worst = 0.0
    for endgame in load_endgames():
        state = State.from_tpn(endgame.tpn)
        began = time.monotonic()
        code = choose_code(state, STRONGEST, movetime=movetime)
        worst = max(worst, time.monotonic() - began)
        total += 1
        if code in endgame.moves:
            kept += 1
        else:
            print(f"lost value: {endgame.tpn} played {code}")
    print(f"endgames at {movetime * 1000:.0f} ms per move: {kept}/{total} value-keeping moves "
          f"({kept / total:.1%}), slowest move {worst * 1000:.0f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ai.bench")
    parser.add_argument("what", nargs="?", choices=("speed", "solve", "endgames", "all"),
                        default="all")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--per-size", type=int, default=10)
    parser.add_argument("--movetime", type=float, default=1000.0)
    args = parser.parse_args(argv)
    if args.what in ("speed", "all"):
        speed(args.seconds)
    if args.what in ("solve", "all"):
        solve_times(args.per_size)
    if args.what in ("endgames", "all"):
        endgames(args.movetime / 1000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
