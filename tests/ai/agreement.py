"""The exact solver against the independent reference (tests/ai/retro_reference.py), on
random duel positions: what the property tests check, and a command that checks thousands.

One reference analysis of a random root solves every position reachable from it; each is a
position of a game (reachable from the root) and its values as a root are the analysis's
(the positions reachable from it are in the graph, and with nothing seen twice nothing
else counts). So a root's analysis is compared with the solver on the root and on positions
drawn from its graph, each solved by the solver afresh as a root, with the move limit far
and near.

    python -m tests.ai.agreement --positions 3000 --max-cards 9 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from games.ai.solver import solve
from games.rules.game import MOVE_LIMIT
from games.rules.moves import format_move_code
from games.rules.state import PositionKey, State
from tests.ai.retro_reference import Analysis, parse_position, position_tpn


def random_state(rng: random.Random, n_cards: int, strict: bool) -> State:
    """A duel position of ``n_cards`` cards drawn as the property tests draw them
    (``positions`` in tests/ai/test_solver_reference.py): the cards, two trumps, a pile of
    some of them (in a random order), the rest split into two hands that are not empty, a
    random mover."""
    cards = rng.sample(range(36), n_cards)
    trumps = rng.sample(range(4), 2)
    in_pile = rng.randint(0, n_cards - 2)
    split = rng.randint(in_pile + 1, n_cards - 1)
    return state_of(trumps, cards[in_pile:split], cards[split:], cards[:in_pile],
                    rng.randint(0, 1), strict)


def state_of(trumps: Sequence[int], hand0: Sequence[int], hand1: Sequence[int],
             pile: Sequence[int], mover: int, strict: bool) -> State:
    masks = [0, 0]
    for seat, hand in enumerate((hand0, hand1)):
        for card in hand:
            masks[seat] |= 1 << card
    return State(list(trumps), masks, list(pile), mover, [], strict=strict)


def solver_values(state: State, history: Sequence[PositionKey], ply: int) -> dict[str, int]:
    """The solver's value of every root move, by its notation; the solution's value and
    best moves checked against them."""
    solution = solve(state, history, ply=ply)
    values = {format_move_code(code): value for code, value in solution.move_values}
    best = max(values.values())
    assert solution.value == best, (state.tpn(), solution)
    assert {format_move_code(code) for code in solution.moves} == {
        text for text, value in values.items() if value == best}, (state.tpn(), solution)
    return values


def disagreements(state: State, rng: random.Random, inner: int,
                  plies_left: Sequence[int] = ()) -> tuple[int, list[str]]:
    """Compare the solver with one reference analysis of ``state``: on the root, and on
    ``inner`` positions drawn from its graph, each also with the move limit each of
    ``plies_left`` plies away. Returns the positions compared and the disagreements."""
    trumps, root = parse_position(state.tpn())
    analysis = Analysis(root, trumps, state.strict, set())
    positions = [root, *rng.choices(analysis.positions, k=inner)]
    faults = []
    for position in positions:
        at = State.from_tpn(position_tpn(trumps, position), strict=state.strict)
        for left in (MOVE_LIMIT, *plies_left):
            expected = analysis.move_values(position, left)
            got = solver_values(at, [at.key()], MOVE_LIMIT - left)
            if got != expected:
                variant = "strict" if state.strict else "standard"
                faults.append(f"{at.tpn()} ({variant}, {left} plies left): solver {got}, "
                              f"reference {expected}")
    return len(positions), faults


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=3000,
                        help="positions compared in all (roots and positions of their graphs)")
    parser.add_argument("--min-cards", type=int, default=5)
    parser.add_argument("--max-cards", type=int, default=9)
    parser.add_argument("--per-graph", type=int, default=10,
                        help="positions drawn from each root's graph besides the root")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 3 <= args.min_cards <= args.max_cards <= 12:
        parser.error("cards: 3 <= --min-cards <= --max-cards <= 12")
    if args.positions < 1 or args.per_graph < 0:
        parser.error("--positions must be positive and --per-graph not negative")
    rng = random.Random(args.seed)
    compared: Counter[tuple[int, str]] = Counter()
    roots: Counter[tuple[int, str]] = Counter()
    faults: list[str] = []
    started = time.monotonic()
    done = 0
    while done < args.positions:
        n_cards = rng.randint(args.min_cards, args.max_cards)
        strict = rng.random() < 0.5
        state = random_state(rng, n_cards, strict)
        inner = min(args.per_graph, args.positions - done - 1)
        count, found = disagreements(state, rng, inner, plies_left=(rng.randint(1, 12),))
        variant = "strict" if strict else "standard"
        compared[n_cards, variant] += count
        roots[n_cards, variant] += 1
        faults.extend(found)
        done += count
        for fault in found:
            print("DISAGREEMENT", fault, flush=True)
    print("cards  variant   roots  positions (each also with the move limit 1-12 plies away)")
    for key in sorted(compared):
        print(f"{key[0]:5}  {key[1]:8}  {roots[key]:5}  {compared[key]:9}")
    print(f"total: {sum(compared.values())} positions from {sum(roots.values())} roots, "
          f"{len(faults)} disagreements, {time.monotonic() - started:.0f} s")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
