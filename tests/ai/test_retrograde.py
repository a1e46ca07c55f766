"""The retrograde analysis (games/ai/retrograde.py): compiled and in Python it gives the
same values, distances and position counts; it reproduces every line of the solved
endgame file (value and value-keeping moves); its root values are those of a brute-force
minimax; and its distances follow their own definition move by move.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai.duel import DuelTable
from games.ai.duel_search import duel_key
from games.ai.endgames import load_endgames, random_endgame
from games.ai.retrograde import retrograde, retrograde_python
from games.rules import State
from games.rules.native import core
from tests.ai import reference

SMALL = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True)
def _needs_the_core() -> None:
    if core is None:
        pytest.fail("games._core is not built: reinstall with a C compiler (pip install -e .)")


def _args(state: State) -> tuple[tuple[int, int], bool, int, int, tuple[int, ...], int]:
    t0, t1 = state.trumps
    h0, h1 = state.hand_masks
    me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
    return (int(t0), int(t1)), state.strict, me, opp, state.pile_codes, state.to_move


def _small(seed: int, cards: int, strict: bool) -> State:
    state = random_endgame(random.Random(seed), cards)
    return State.from_tpn(state.tpn(), strict=strict)


@SMALL
@given(seed=st.integers(0, 2**32), cards=st.integers(3, 8), strict=st.booleans(),
       root_on_path=st.booleans(), n_draws=st.integers(0, 3))
def test_compiled_and_python_agree(seed: int, cards: int, strict: bool, root_on_path: bool,
                                   n_draws: int) -> None:
    state = _small(seed, cards, strict)
    # Draws: positions along a random line from the root.
    rng = random.Random(seed)
    walker, draws = state.clone(), []
    for _ in range(n_draws):
        walker.apply_code(rng.choice(walker.legal_move_codes()))
        if walker.is_over():
            break
        draws.append(duel_key(*_args(walker)[2:]))
    args = _args(state)
    compiled = retrograde(*args, draws=draws, root_on_path=root_on_path)
    python = retrograde_python(*args, draws=draws, root_on_path=root_on_path)
    assert compiled == python
    assert compiled is not None
    assert [code for code, _, _ in compiled.moves] == state.legal_move_codes()


def test_every_endgame_of_the_file_is_reproduced() -> None:
    for endgame in load_endgames():
        state = State.from_tpn(endgame.tpn)
        found = retrograde(*_args(state))
        assert found is not None
        assert found.value == endgame.value, endgame.tpn
        kept = {code for code, value, _ in found.moves if value == found.value}
        assert kept == endgame.moves, endgame.tpn


@SMALL
@given(seed=st.integers(0, 2**32), cards=st.integers(3, 6), strict=st.booleans())
def test_root_values_are_those_of_a_brute_force_minimax(seed: int, cards: int,
                                                        strict: bool) -> None:
    state = _small(seed, cards, strict)
    found = retrograde(*_args(state))
    assert found is not None
    assert found.value == reference.minimax(state.clone())
    assert dict((code, value) for code, value, _ in found.moves) == \
        reference.move_values(state.clone())


@SMALL
@given(seed=st.integers(0, 2**32), cards=st.integers(3, 8), strict=st.booleans())
def test_distances_follow_their_definition(seed: int, cards: int, strict: bool) -> None:
    state = _small(seed, cards, strict)
    trumps, strict_, me, opp, pile, mover = _args(state)
    found = retrograde(trumps, strict_, me, opp, pile, mover, root_on_path=False)
    assert found is not None
    for code, value, distance in found.moves:
        hand, after = DuelTable.play(me, pile, code)
        if not hand:
            assert (value, distance) in ((1, 1), (0, 0))
            continue
        child = retrograde(trumps, strict_, opp, hand, after, 1 - mover, root_on_path=False)
        assert child is not None
        assert value == -child.value
        assert distance == (child.distance + 1 if value else 0)
        assert distance % 2 == (1 if value > 0 else 0)


def test_past_max_states_there_is_no_answer() -> None:
    state = State.from_tpn("SH 7C8H/9DADTS - 1 -")
    args = _args(state)
    found = retrograde(*args)
    assert found is not None
    assert found.positions > 10
    assert retrograde(*args, max_states=found.positions) == found
    assert retrograde(*args, max_states=found.positions - 1) is None
    assert retrograde_python(*args, max_states=found.positions - 1) is None


def test_bad_input_is_refused_with_a_value_error() -> None:
    with pytest.raises(ValueError, match="both seats"):
        retrograde((0, 1), False, 0, 1, (), 0)
    with pytest.raises(ValueError, match="both seats"):
        retrograde_python((0, 1), False, 1, 0, (), 0)
    with pytest.raises(ValueError, match="suit"):
        retrograde((0, 7), False, 1, 2, (), 0)
