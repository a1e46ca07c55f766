"""Solved duel endgames: random small positions with their exact value and every move
that keeps it, written to and read from a data file.

    python -m games.ai.endgames [--count N] [--max-cards C] [--seed S] > FILE

Public names: ``Endgame``, ``random_endgame``, ``load_endgames``, ``format_endgame``,
``ENDGAMES_FILE``.

One endgame per line: ``TPN ; VALUE ; MOVE MOVE ...`` where VALUE is 1, 0 or -1 for the
seat to move and the moves are every legal move that keeps that value, sorted by code.
Lines starting with ``#`` are comments.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from games.ai.solver import SearchTimeout, solve
from games.rules.moves import format_move_code, parse_move_code
from games.rules.state import State

ENDGAMES_FILE = Path(__file__).parent / "data" / "endgames.txt"


@dataclass(frozen=True, slots=True)
class Endgame:
    tpn: str
    value: int
    moves: frozenset[int]


def random_endgame(rng: random.Random, n_cards: int) -> State:
    """A random duel position with ``n_cards`` cards in the hands and the pile."""
    cards = rng.sample(range(36), n_cards)
    trumps = rng.sample(range(4), 2)
    in_pile = rng.randint(0, n_cards - 2)
    pile, rest = cards[:in_pile], cards[in_pile:]
    split = rng.randint(1, len(rest) - 1)
    hands = [0, 0]
    for card in rest[:split]:
        hands[0] |= 1 << card
    for card in rest[split:]:
        hands[1] |= 1 << card
    return State(trumps, hands, pile, rng.randint(0, 1), [])


def format_endgame(endgame: Endgame) -> str:
    moves = " ".join(format_move_code(c) for c in sorted(endgame.moves))
    return f"{endgame.tpn} ; {endgame.value} ; {moves}"


def load_endgames(path: Path = ENDGAMES_FILE) -> list[Endgame]:
    endgames = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tpn, value, moves = (part.strip() for part in line.split(";"))
        endgames.append(Endgame(tpn, int(value),
                                frozenset(parse_move_code(m) for m in moves.split())))
    return endgames


def generate(count: int, max_cards: int, seed: int, max_nodes: int) -> Iterator[Endgame]:
    """``count`` solved positions of 4..max_cards cards in turn (sizes cycle), skipping
    those the solver cannot finish within ``max_nodes``."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        n_cards = 4 + found % (max_cards - 3)
        state = random_endgame(rng, n_cards)
        try:
            solution = solve(state, all_moves=True, max_nodes=max_nodes)
        except SearchTimeout:
            continue  # too big to solve within the budget: not a reference position
        found += 1
        yield Endgame(state.tpn(), solution.value, frozenset(solution.moves))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ai.endgames")
    parser.add_argument("--count", type=int, default=210)
    parser.add_argument("--max-cards", type=int, default=10)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--max-nodes", type=int, default=400_000)
    args = parser.parse_args(argv)
    print(f"# {args.count} random duel positions of 4..{args.max_cards} cards, solved exactly")
    print(f"# by: python -m games.ai.endgames --count {args.count} "
          f"--max-cards {args.max_cards} --seed {args.seed} --max-nodes {args.max_nodes}")
    print("# TPN ; value for the seat to move (1 win, 0 draw, -1 loss) ; value-keeping moves")
    for endgame in generate(args.count, args.max_cards, args.seed, args.max_nodes):
        print(format_endgame(endgame), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
