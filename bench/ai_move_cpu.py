"""Level 4's CPU per duel move at several budgets, over the same positions.

    python bench/ai_move_cpu.py --load GAMES [--games 12] [--budgets 0.25 1.0]

``GAMES`` is a file of duels that ``bench/analysis_games.py --save`` wrote. The positions
are the plies 3, 9, 15, ... 39 of its first ``--games`` games; each is given to
``choose_move(game, 4, movetime=budget)`` with the game's history, as the site's task does.
The budgets are counted in CPU time of the process (as the arena's ``--cpu-clock``), so a
loaded machine measures what an idle one would: the CPU a move costs one AI worker.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.ai import choose_move
from games.rules.game import Game
from games.rules.moves import Move


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/ai_move_cpu.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=Path, required=True,
                        help="games saved by bench/analysis_games.py --save")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.25, 1.0])
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.load.read_text().splitlines() if line]
    # The searches read their deadlines from time.monotonic.
    time.monotonic = time.process_time
    for budget in args.budgets:
        cpus = []
        for row in rows[:args.games]:
            game = Game.from_tpn(row["start"])
            for ply, code in enumerate(row["moves"]):
                if ply % 6 == 3 and ply < 40:
                    began = time.process_time()
                    choose_move(game, 4, movetime=budget)
                    cpus.append(time.process_time() - began)
                game.play(Move.from_code(code, bool(game.state.pile_codes)))
        print(f"budget {budget} s: {len(cpus)} moves, CPU per move mean "
              f"{statistics.fmean(cpus) * 1000:.0f} ms, p50 {statistics.median(cpus) * 1000:.0f}"
              f" ms, max {max(cpus) * 1000:.0f} ms; load average {os.getloadavg()[0]:.1f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
