"""The duel AI's speed against another checkout of the code (the code before a change),
measured in turn in one run, best of three.

    python bench/ai_speed_before.py --old OLD_CHECKOUT [--old-python PYTHON] [--rounds 3]
                                    [--seconds 3] [--positions 20]

Each round runs the same measurement once in the old checkout (``--old``, with the Python
of its virtual environment, ``OLD_CHECKOUT/.venv/bin/python`` unless ``--old-python``) and
once in this one, each in a fresh process started in its checkout's directory:

- the search: nodes per second of ``Searcher.search`` from three seeded deals, ``--seconds``
  each (what ``python -m games.ai.bench speed`` measures);
- the exact solver: the same ``--positions`` random positions of 9 cards, each solved
  afresh (give-up past 200,000 nodes): positions solved per second of solving, give-ups,
  and nodes per second as each solver counts them (the depth-first solver its search
  nodes, retrograde analysis its positions).

Rates are per second of the process's CPU time (``time.process_time``), so that a machine
loaded by others measures what an idle one would (the search's deadline stays on the wall
clock: on a loaded machine it searches fewer nodes, at the same rate). Prints each round's
figures, then the best of the rounds for both and their ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

MEASURE = r"""
import json, random, sys, time
import games
from games.ai.duel import DuelTable
from games.ai.endgames import random_endgame
from games.ai.search import Searcher
from games.ai.solver import SearchTimeout, Solver
from games.rules.deal import deal

seconds, n_positions = float(sys.argv[1]), int(sys.argv[2])
nodes = spent = 0
for seed in range(3):
    state = deal(2, seed)
    h0, h1 = state.hand_masks
    t0, t1 = state.trumps
    searcher = Searcher(DuelTable((int(t0), int(t1)), state.strict),
                        deadline=time.monotonic() + seconds)
    began = time.process_time()
    searcher.search(h0, h1, (), state.to_move)
    spent += time.process_time() - began
    nodes += searcher.nodes
search = nodes / spent
rng = random.Random(3)
solved = gave_up = solver_nodes = 0
solve_time = 0.0
for _ in range(n_positions):
    state = random_endgame(rng, 9)
    h0, h1 = state.hand_masks
    me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
    t0, t1 = state.trumps
    solver = Solver(DuelTable((int(t0), int(t1)), state.strict, collapse=False),
                    max_nodes=200_000)
    began = time.process_time()
    try:
        solver.solve(me, opp, state.pile_codes, state.to_move)
        solved += 1
    except SearchTimeout:
        gave_up += 1
    solve_time += time.process_time() - began
    solver_nodes += solver.nodes
print(json.dumps({"search": search, "solver_nodes": solver_nodes / solve_time,
                  "solved_per_s": solved / solve_time, "gave_up": gave_up,
                  "solve_s": solve_time, "code": games.__file__}))
"""


def _measure(python: str, checkout: Path, seconds: float,
             positions: int) -> dict[str, float]:
    done = subprocess.run([python, "-c", MEASURE, str(seconds), str(positions)],
                          capture_output=True, text=True, check=True, cwd=checkout)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    code = Path(figures.pop("code")).resolve()
    if not code.is_relative_to(checkout.resolve()):
        raise SystemExit(f"{python} in {checkout} runs the code of {code}, not that checkout")
    return dict(figures)


def _line(name: str, figures: dict[str, float]) -> str:
    return (f"{name}: search {figures['search']:,.0f} nodes/s; solver "
            f"{figures['solved_per_s']:,.2f} positions/s ({figures['solve_s']:.2f} s, "
            f"{figures['gave_up']:.0f} give-ups), {figures['solver_nodes']:,.0f} nodes/s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/ai_speed_before.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the old checkout")
    parser.add_argument("--old-python", help="its Python (default: its .venv's)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0 or args.positions < 1:
        parser.error("--rounds, --seconds and --positions must be positive")
    old_python = args.old_python or str(args.old / ".venv" / "bin" / "python")
    if not Path(old_python).exists():
        parser.error(f"{old_python} does not exist: give --old-python")
    best: dict[str, dict[str, float]] = {}
    runs = (("old", old_python, args.old), ("new", sys.executable, HERE))
    for round_ in range(1, args.rounds + 1):
        for name, python, checkout in runs:
            figures = _measure(python, checkout, args.seconds, args.positions)
            print(f"round {round_}, {_line(name, figures)}", flush=True)
            kept = best.setdefault(name, figures)
            for key in ("search", "solver_nodes", "solved_per_s"):
                kept[key] = max(kept[key], figures[key])
            if figures["solve_s"] < kept["solve_s"]:
                kept["solve_s"], kept["gave_up"] = figures["solve_s"], figures["gave_up"]
    old, new = best["old"], best["new"]
    print(f"best of {args.rounds}:")
    print("  " + _line("old", old))
    print("  " + _line("new", new))
    print(f"  new/old: search {new['search'] / old['search']:.1f}x; solver "
          f"{new['solved_per_s'] / old['solved_per_s']:.1f}x positions solved per second, "
          f"{new['solver_nodes'] / old['solver_nodes']:.1f}x nodes per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
