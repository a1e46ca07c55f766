"""The exact solver agrees with an independent retrograde reference (tests/ai/
retro_reference.py) on every root move of random positions of up to 9 cards: both variants,
with and without a game's past (positions seen twice, the move limit near); and the
reference's rules are the engine's. ``python -m tests.ai.agreement`` checks thousands."""

from __future__ import annotations

import os
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.ai.duel import DuelTable
from games.ai.solver import Solver
from games.rules.moves import format_move_code
from games.rules.state import State
from tests.ai.agreement import disagreements, solver_values, state_of
from tests.ai.retro_reference import moves, parse_position, position_tpn, reference_values

EXAMPLES = int(os.environ.get("SOLVER_REFERENCE_EXAMPLES", "500"))
"""Random roots of 5 to 7 cards compared per run, each with two positions of its graph; the
other tests take a share of it (a longer run: ``SOLVER_REFERENCE_EXAMPLES=5000``, or
``python -m tests.ai.agreement``, docs/ai.md)."""


@st.composite
def positions(draw: st.DrawFn, least: int = 5, most: int = 7) -> State:
    n_cards = draw(st.integers(least, most))
    cards = draw(st.lists(st.integers(0, 35), min_size=n_cards, max_size=n_cards,
                          unique=True))
    trumps = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    in_pile = draw(st.integers(0, n_cards - 2))
    split = draw(st.integers(in_pile + 1, n_cards - 1))
    return state_of(trumps, cards[in_pile:split], cards[split:], cards[:in_pile],
                    draw(st.integers(0, 1)), draw(st.booleans()))


def _past(state: State, seed: int) -> list[State]:
    """A game's past that matters: positions a random walk from ``state`` goes through,
    some seen twice, the root perhaps once before; the root last."""
    rng = random.Random(seed)
    walk = state.clone()
    seen: list[State] = []
    for _ in range(rng.randint(1, 12)):
        codes = walk.legal_move_codes()
        walk.apply_code(rng.choice(codes))
        if walk.is_over():
            break
        seen.append(walk.clone())
    twice = rng.sample(seen, min(len(seen), rng.randint(0, 2)))
    before = [state] if rng.random() < 0.5 else []
    return [*twice, *twice, *before, state]


def _agrees(state: State, inner: int, seed: int, plies_left: tuple[int, ...] = ()) -> None:
    count, faults = disagreements(state, random.Random(seed), inner, plies_left)
    assert count == inner + 1
    assert not faults, faults


@settings(max_examples=EXAMPLES)
@given(positions(), st.integers(0, 2**32))
def test_every_root_move_agrees_with_the_reference(state: State, seed: int) -> None:
    _agrees(state, 2, seed)


@settings(max_examples=EXAMPLES // 35)
@given(positions(8, 9), st.integers(0, 2**32))
def test_larger_positions_agree_with_the_reference(state: State, seed: int) -> None:
    """Positions of 8 and 9 cards: the reference's analysis of a root (up to a second or
    two) serves thirty positions of its graph."""
    _agrees(state, 30, seed)


@settings(max_examples=EXAMPLES // 3)
@given(positions(), st.integers(0, 2**32))
def test_a_game_past_counts_as_the_rules_say(state: State, seed: int) -> None:
    past = _past(state, seed)
    expected = reference_values(state.tpn(), state.strict, [s.tpn() for s in past])
    assert solver_values(state, [s.key() for s in past], 0) == expected, (
        state.tpn(), [s.tpn() for s in past])


@settings(max_examples=EXAMPLES // 3)
@given(positions(), st.integers(0, 2**32), st.integers(1, 12))
def test_the_move_limit_counts_as_the_rules_say(state: State, seed: int, left: int) -> None:
    _agrees(state, 3, seed, (left,))


@settings(max_examples=EXAMPLES)
@given(positions(2, 7))
def test_the_references_rules_are_the_engines(state: State) -> None:
    """The reference's own move generator (every move, by its notation, and where it goes)
    is the engine's, so that agreement means agreement on the game of docs/rules.md."""
    trumps, position = parse_position(state.tpn())
    expected = {}
    for code in state.legal_move_codes():
        child = state.clone()
        child.apply_code(code)
        outcome = child.outcome()
        if outcome is None:
            expected[format_move_code(code)] = ("pos", child.tpn())
        else:
            mover_wins = outcome.loser is not None and outcome.loser != state.to_move
            expected[format_move_code(code)] = ("end", 1 if mover_wins else 0)
    got = {text: (kind, target if kind == "end" else position_tpn(trumps, target))
           for text, (kind, target) in moves(position, trumps, state.strict).items()}
    assert got == expected


@settings(max_examples=EXAMPLES // 8)
@given(positions(5, 6))
# A move that wins by going back to the root (its second occurrence) and on from there.
@example(state=State.from_tpn("CD 6C7C/8C9CTCJC - 0 -"))
def test_values_inside_a_session_are_the_values_as_roots(state: State) -> None:
    """A session that solved a position answers for its children what they are as roots,
    retrograde or depth-first (no graph-history interaction)."""
    t0, t1 = state.trumps
    for max_states in (10**6, 0):
        solver = Solver(DuelTable((int(t0), int(t1)), state.strict, collapse=False),
                        max_states=max_states)
        h0, h1 = state.hand_masks
        me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
        solver.solve(me, opp, state.pile_codes, state.to_move, all_moves=True)
        for code in state.legal_move_codes():
            child = state.clone()
            child.apply_code(code)
            if child.is_over():
                continue
            c0, c1 = child.hand_masks
            cme, copp = (c0, c1) if child.to_move == 0 else (c1, c0)
            got = solver.solve(cme, copp, child.pile_codes, child.to_move, all_moves=True)
            assert {format_move_code(code): value for code, value in got.move_values} == (
                reference_values(child.tpn(), child.strict, [child.tpn()])), (
                child.tpn(), max_states)
