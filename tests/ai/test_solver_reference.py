"""The exact solver agrees with an independent retrograde reference (tests/ai/
retro_reference.py) on every root move of random small positions: both variants, with and
without a game's past (positions seen twice, the move limit near)."""

from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai.duel import DuelTable
from games.ai.solver import Solver, solve
from games.rules.game import MOVE_LIMIT
from games.rules.state import PositionKey, State
from tests.ai.retro_reference import reference_values

EXAMPLES = int(os.environ.get("SOLVER_REFERENCE_EXAMPLES", "1000"))
"""Random positions of 5 to 7 cards compared per run; the other tests take a share of it
(a longer run: ``SOLVER_REFERENCE_EXAMPLES=20000``, docs/ai.md)."""


@st.composite
def positions(draw: st.DrawFn, least: int = 5, most: int = 7) -> State:
    n_cards = draw(st.integers(least, most))
    cards = draw(st.lists(st.integers(0, 35), min_size=n_cards, max_size=n_cards,
                          unique=True))
    trumps = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    in_pile = draw(st.integers(0, n_cards - 2))
    split = draw(st.integers(in_pile + 1, n_cards - 1))
    hands = [0, 0]
    for card in cards[in_pile:split]:
        hands[0] |= 1 << card
    for card in cards[split:]:
        hands[1] |= 1 << card
    return State(trumps, hands, cards[:in_pile], draw(st.integers(0, 1)), [],
                 strict=draw(st.booleans()))


def _past(state: State, seed: int) -> list[PositionKey]:
    """A game's past that matters: positions a random walk from ``state`` goes through,
    some seen twice, the root perhaps once before; the root last."""
    rng = random.Random(seed)
    walk = state.clone()
    seen: list[PositionKey] = []
    for _ in range(rng.randint(1, 12)):
        codes = walk.legal_move_codes()
        walk.apply_code(rng.choice(codes))
        if walk.is_over():
            break
        seen.append(walk.key())
    twice = rng.sample(seen, min(len(seen), rng.randint(0, 2)))
    before = [state.key()] if rng.random() < 0.5 else []
    return [*twice, *twice, *before, state.key()]


def _check(state: State, history: list[PositionKey], ply: int) -> None:
    expected = reference_values(state, history, MOVE_LIMIT - ply)
    solution = solve(state, history, ply=ply)
    assert dict(solution.move_values) == expected, (state.tpn(), state.strict, history, ply)
    best = max(expected.values())
    assert solution.value == best
    assert set(solution.moves) == {c for c, v in expected.items() if v == best}


@settings(max_examples=EXAMPLES)
@given(positions())
def test_every_root_move_agrees_with_the_reference(state: State) -> None:
    _check(state, [state.key()], 0)


@settings(max_examples=EXAMPLES // 100)
@given(positions(8, 9))
def test_larger_positions_agree_with_the_reference(state: State) -> None:
    _check(state, [state.key()], 0)


@settings(max_examples=EXAMPLES // 4)
@given(positions(), st.integers(0, 2**32))
def test_a_game_past_counts_as_the_rules_say(state: State, seed: int) -> None:
    _check(state, _past(state, seed), 0)


@settings(max_examples=EXAMPLES // 4)
@given(positions(), st.integers(1, 12))
def test_the_move_limit_counts_as_the_rules_say(state: State, left: int) -> None:
    _check(state, [state.key()], MOVE_LIMIT - left)


@settings(max_examples=EXAMPLES // 8)
@given(positions(5, 6))
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
            assert dict(got.move_values) == reference_values(child, [child.key()]), (
                child.tpn(), max_states)
