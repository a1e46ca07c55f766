"""The puzzle generator's rate from AI self-play, in one process.

    python bench/puzzles_generate.py [--count 2000] [--seed S] [--full-deals G]
                                     [--cards LEAST MOST] [--solve-states N]

Generates ``--count`` puzzles from AI self-play (``games.ai.puzzles.self_play_puzzles``)
and prints the time, the rate (puzzles per second and the time 2,000 take at that rate),
the games played, the positions examined and the share of them that became puzzles, and
the themes found (and how many puzzles have none), and the puzzles by cards in play.
``--cards`` and ``--solve-states`` set the self-play deals' size and the solver's budget
(default: the generator's, ``DEAL_CARDS`` and ``SOLVE_STATES``), to compare settings.
``--full-deals G`` also plays G duels from full 36-card deals (the arena's level 3 against
itself) and runs the finder over their last 16 positions, to show why self-play deals short
games. Wall clock and CPU time of the process are both printed: they differ on a shared
machine.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from games.ai.match import make_bot, play_game
from games.ai.puzzles import PuzzleFinder, SelfPlay, self_play_puzzles
from games.ai.puzzles.proofs import SOLVE_STATES
from games.ai.puzzles.selfplay import DEAL_CARDS
from games.rules.cards import Suit
from games.rules.deal import deal
from games.rules.state import State


def _full_deals(games: int, seed: int) -> None:
    found = examined = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for game_seed in range(seed, seed + games):
        rng = random.Random(game_seed)
        t0, t1 = rng.sample(range(4), 2)
        start = deal(2, game_seed, trumps=(Suit(t0), Suit(t1)))
        record = play_game(start, [make_bot("level3", 0.02), make_bot("level3", 0.02)], rng)
        finder = PuzzleFinder((t0, t1))
        state = start.clone()
        for ply, code in enumerate(record.codes):
            if ply >= len(record.codes) - 16:
                found += finder.find(state, ply) is not None
            state.apply_code(code)
        examined += finder.examined
    print(f"full deals: {games} games, {examined} positions examined, {found} puzzles "
          f"({found / max(1, examined):.1%}), {time.perf_counter() - wall:.0f} s wall, "
          f"{time.process_time() - cpu:.0f} s CPU")


def _cards(tpn: str) -> int:
    state = State.from_tpn(tpn)
    h0, h1 = state.hand_masks
    return (h0 | h1).bit_count() + len(state.pile_codes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/puzzles_generate.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full-deals", type=int, default=0)
    parser.add_argument("--cards", type=int, nargs=2, default=DEAL_CARDS,
                        metavar=("LEAST", "MOST"), help="cards of a self-play deal")
    parser.add_argument("--solve-states", type=int, default=SOLVE_STATES,
                        help="positions of the largest graph the solver analyses")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    if not 2 <= args.cards[0] <= args.cards[1] <= 36:
        parser.error("--cards: 2 <= LEAST <= MOST <= 36")
    run = SelfPlay()
    themes: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    sizes: Counter[int] = Counter()
    themeless = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for puzzle, _start, _seed in self_play_puzzles(args.count, seed=args.seed, run=run,
                                                   cards=tuple(args.cards),
                                                   solve_states=args.solve_states):
        sizes[_cards(puzzle.tpn)] += 1
        themes.update(puzzle.themes)
        themeless += not puzzle.themes
        lengths[len(puzzle.steps)] += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"puzzles: {run.puzzles} in {wall:.1f} s wall, {cpu:.1f} s CPU: "
          f"{run.puzzles / wall:.2f} per second wall ({2000 / (run.puzzles / wall) / 60:.1f} "
          f"min for 2,000), {run.puzzles / cpu:.2f} per CPU second "
          f"({2000 / (run.puzzles / cpu) / 60:.1f} CPU min for 2,000)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"games played: {run.games}; positions examined: {run.examined}; became puzzles: "
          f"{run.puzzles / run.examined:.1%}")
    print("lines (moves: puzzles): " + ", ".join(f"{n}: {c}" for n, c in sorted(lengths.items())))
    print("cards in play (cards: puzzles): "
          + ", ".join(f"{n}: {c}" for n, c in sorted(sizes.items())))
    print("themes: " + ", ".join(f"{t} {c}" for t, c in themes.most_common())
          + f"; puzzles without a theme: {themeless}")
    if args.full_deals:
        _full_deals(args.full_deals, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
