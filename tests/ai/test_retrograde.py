"""The compiled retrograde analysis (games._core.retrograde and retrograde_graph): it gives
the values, distances and position counts of the plain Python analysis of
tests/ai/retrograde_reference.py; it reproduces every line of the solved endgame file (value
and value-keeping moves); its root values are those of a brute-force minimax; and its
distances follow their own definition move by move.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.ai.retrograde as retrograde_module
from games.ai.duel import DuelTable
from games.ai.duel_search import duel_key
from games.ai.endgames import load_endgames, random_endgame
from games.ai.solver import Solver, solve
from games.rules import State
from games.rules.native import core as compiled
from tests.ai import reference, retrograde_reference
from tests.ai.test_solver_reference import _past, positions

SMALL = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Args = tuple[tuple[int, int], bool, int, int, tuple[int, ...], int]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    if compiled is None:
        pytest.fail("games._core is not built: reinstall with a C compiler (pip install -e .)")
    return compiled


def _args(state: State) -> Args:
    t0, t1 = state.trumps
    h0, h1 = state.hand_masks
    me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
    return (int(t0), int(t1)), state.strict, me, opp, state.pile_codes, state.to_move


def _small(seed: int, cards: int, strict: bool) -> State:
    state = random_endgame(random.Random(seed), cards)
    return State.from_tpn(state.tpn(), strict=strict)


def _line(state: State, seed: int, length: int) -> list[tuple[int, int, tuple[int, ...], int]]:
    """Positions along a random line from ``state``."""
    rng, walker, keys = random.Random(seed), state.clone(), []
    for _ in range(length):
        walker.apply_code(rng.choice(walker.legal_move_codes()))
        if walker.is_over():
            break
        keys.append(duel_key(*_args(walker)[2:]))
    return keys


@SMALL
@given(seed=st.integers(0, 2**32), cards=st.integers(3, 8), strict=st.booleans(),
       root_on_path=st.booleans(), n_draws=st.integers(0, 3))
def test_compiled_and_python_agree(core: ModuleType, seed: int, cards: int, strict: bool,
                                   root_on_path: bool, n_draws: int) -> None:
    state = _small(seed, cards, strict)
    draws = _line(state, seed, n_draws)
    args = _args(state)
    found = core.retrograde(*args, draws=draws, root_on_path=root_on_path)
    assert found == retrograde_reference.root(*args, draws=draws, root_on_path=root_on_path)
    assert [code for code, _, _ in found[2]] == state.legal_move_codes()
    trumps, strict_, me, opp, pile, mover = args
    key = duel_key(me, opp, pile, mover)
    solved = core.retrograde_graph(trumps, strict_, key, draws)
    nodes, size = retrograde_reference.graph(trumps, strict_, key, draws)
    assert solved.to_dict() == nodes
    assert len(solved) == size
    for position, node in list(nodes.items())[:50]:
        assert position in solved
        assert solved[position] == solved.get(position) == node
    for position in draws:
        assert position not in solved or position == key
    assert solved.get((1, 2, (), 0)) is None
    assert (1, 2, (), 0) not in solved
    assert "not a key" not in solved
    with pytest.raises(KeyError):
        solved[(1, 2, (), 0)]


def test_every_endgame_of_the_file_is_reproduced(core: ModuleType) -> None:
    """The file's values, and its value-keeping moves under one rule for the whole file:
    the game's (``root_on_path=False``: coming back to the root is its second occurrence)
    or a search path's (``root_on_path=True``: coming back is a draw), whichever the solver
    that wrote the file followed. The values are the same under both."""
    rules = {False: True, True: True}
    for endgame in load_endgames():
        state = State.from_tpn(endgame.tpn)
        for root_on_path in rules:
            value, _, moves, _ = core.retrograde(*_args(state), root_on_path=root_on_path)
            assert value == endgame.value, endgame.tpn
            kept = {code for code, v, _ in moves if v == value}
            rules[root_on_path] = rules[root_on_path] and kept == endgame.moves
    assert rules[False] or rules[True]


@SMALL
@given(seed=st.integers(0, 2**32), cards=st.integers(3, 6), strict=st.booleans())
def test_root_values_are_those_of_a_brute_force_minimax(core: ModuleType, seed: int, cards: int,
                                                        strict: bool) -> None:
    state = _small(seed, cards, strict)
    value, _, moves, _ = core.retrograde(*_args(state), root_on_path=True)
    assert value == reference.minimax(state.clone())
    assert {code: v for code, v, _ in moves} == reference.move_values(state.clone())


@SMALL
@given(seed=st.integers(0, 2**32), cards=st.integers(3, 8), strict=st.booleans())
def test_distances_follow_their_definition(core: ModuleType, seed: int, cards: int,
                                           strict: bool) -> None:
    state = _small(seed, cards, strict)
    trumps, strict_, me, opp, pile, mover = _args(state)
    nodes = core.retrograde_graph(trumps, strict_, duel_key(me, opp, pile, mover))
    for code, value, distance in core.retrograde(trumps, strict_, me, opp, pile, mover)[2]:
        hand, after = DuelTable.play(me, pile, code)
        if not hand:
            assert (value, distance) in ((1, 1), (0, 0))
            continue
        child_value, child_distance = nodes[duel_key(opp, hand, after, 1 - mover)]
        assert value == -child_value
        assert distance == (child_distance + 1 if value else 0)
        assert distance % 2 == (1 if value > 0 else 0)


def test_past_max_states_there_is_no_answer_and_check_is_called(core: ModuleType) -> None:
    state = State.from_tpn("SH 7C8H/9DADTS - 1 -")
    args = _args(state)
    found = core.retrograde(*args)
    positions = found[3]
    assert positions > 10
    assert core.retrograde(*args, max_states=positions) == found
    assert core.retrograde(*args, max_states=positions - 1) is None
    key = duel_key(*args[2:])
    assert core.retrograde_graph(args[0], args[1], key, max_states=positions - 1) is None
    assert retrograde_reference.graph(args[0], args[1], key, max_states=positions - 1) is None
    big = State.from_tpn(load_endgames()[4].tpn)
    counts: list[int] = []
    solved = core.retrograde_graph(*_args(big)[:2], duel_key(*_args(big)[2:]),
                                   check=counts.append)
    size = len(solved)
    assert size > 4096
    assert counts == list(range(4096, size, 4096))

    def stop(count: int) -> None:
        raise TimeoutError(count)

    with pytest.raises(TimeoutError):
        core.retrograde_graph(*_args(big)[:2], duel_key(*_args(big)[2:]), check=stop)


def test_bad_input_is_refused_with_a_value_error(core: ModuleType) -> None:
    with pytest.raises(ValueError, match="both seats"):
        core.retrograde((0, 1), False, 0, 1, (), 0)
    with pytest.raises(ValueError, match="both seats"):
        core.retrograde_graph((0, 1), False, (1, 0, (), 0))
    with pytest.raises(ValueError, match="suit"):
        core.retrograde((0, 7), False, 1, 2, (), 0)


@contextlib.contextmanager
def _pure_python() -> Iterator[None]:
    """``games.ai.retrograde`` without the compiled core (as under ``YT_PURE_PYTHON=1``)."""
    saved, retrograde_module.core = retrograde_module.core, None
    try:
        yield
    finally:
        retrograde_module.core = saved


@SMALL
@given(state=positions(3, 8), seed=st.integers(0, 2**32), ply=st.sampled_from([0, 150, 190]))
def test_the_solver_gives_the_same_solutions_compiled_and_in_python(
        core: ModuleType, state: State, seed: int, ply: int) -> None:
    """One meaning: ``solve`` over the compiled retrograde analysis and over the plain
    Python one give the same value, moves in the same order, values and position count,
    with a game's past (positions seen twice, the root seen before, the move limit near)."""
    history = [past.key() for past in _past(state, seed)]
    compiled_solution = solve(state, history, ply=ply)
    with _pure_python():
        assert retrograde_module.core is None
        python_solution = solve(state, history, ply=ply)
    assert compiled_solution == python_solution


def test_a_session_answers_from_the_compiled_graphs_it_solved(core: ModuleType) -> None:
    state = State.from_tpn("SH 7C8H/9DADTS - 1 -")
    me, opp = _args(state)[2:4]
    solver = Solver(DuelTable(_args(state)[0], state.strict, collapse=False))
    first = solver.solve(me, opp, state.pile_codes, state.to_move, all_moves=True)
    assert len(solver.solved.graphs) == 1
    assert type(solver.solved.graphs[0]).__name__ == "SolvedGraph"
    child = state.clone()
    child.apply_code(first.moves[0])
    h0, h1 = child.hand_masks
    c_me, c_opp = (h0, h1) if child.to_move == 0 else (h1, h0)
    again = solver.solve(c_me, c_opp, child.pile_codes, child.to_move, all_moves=True)
    assert len(solver.solved.graphs) == 1
    assert again.nodes == first.nodes  # nothing enumerated again
    fresh = solve(child, all_moves=True)
    assert (again.value, again.moves, again.move_values) == \
        (fresh.value, fresh.moves, fresh.move_values)
    assert again.value == -first.value
