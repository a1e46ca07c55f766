"""The exact solver against brute force, the endgame data file, and repetition."""

from __future__ import annotations

import random

import pytest

from games.ai.endgames import ENDGAMES_FILE, load_endgames, random_endgame
from games.ai.solver import solve
from games.rules.state import State
from tests.ai.reference import minimax, move_values

ENDGAMES = load_endgames(ENDGAMES_FILE)


def _cards(tpn: str) -> int:
    state = State.from_tpn(tpn)
    return state.hand_size(0) + state.hand_size(1) + len(state.pile_codes)


@pytest.mark.parametrize("seed", range(4))
def test_solver_agrees_with_brute_force_minimax(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        state = random_endgame(rng, rng.randint(3, 6))
        solution = solve(state, all_moves=True)
        assert solution.value == minimax(state), state.tpn()
        values = move_values(state)
        assert set(solution.moves) == {c for c, v in values.items() if v == solution.value}


def test_the_endgame_file_is_large_and_covers_up_to_ten_cards() -> None:
    assert len(ENDGAMES) >= 100
    sizes = {_cards(e.tpn) for e in ENDGAMES}
    assert sizes == set(range(4, 11))
    assert {e.value for e in ENDGAMES} == {-1, 0, 1}


@pytest.mark.parametrize("endgame", [e for e in ENDGAMES if _cards(e.tpn) <= 8],
                         ids=lambda e: e.tpn)
def test_solver_reproduces_the_endgame_file(endgame) -> None:  # type: ignore[no-untyped-def]
    solution = solve(State.from_tpn(endgame.tpn), all_moves=True)
    assert solution.value == endgame.value
    assert set(solution.moves) == endgame.moves


def test_collapsing_adjacent_cards_is_not_exact() -> None:
    """Why the exact solver does not collapse: 8C and JC are adjacent among the cards in
    play and both end up in seat 1's hand, but once separated one can beat the other."""
    state = State.from_tpn("SD 7C8S/6S 8DASJSQD8CJC 1 -")
    assert solve(state, all_moves=False, collapse=False).value == -1
    assert solve(state, all_moves=False, collapse=True).value == 0


def test_a_position_seen_twice_is_a_draw_to_enter_again() -> None:
    """A lost position is saved by a move into a position the game has seen twice: its
    third occurrence is a draw (docs/rules.md), and the solver must see it."""
    checked = 0
    for endgame in ENDGAMES:
        state = State.from_tpn(endgame.tpn)
        if endgame.value != -1 or _cards(endgame.tpn) > 8:
            continue
        for code in state.legal_move_codes():
            child = state.clone()
            child.apply_code(code)
            if child.outcome() is not None:
                continue
            saved = solve(state, [child.key(), child.key()])
            assert saved.value == 0, endgame.tpn
            assert code in saved.moves
            checked += 1
            break
    assert checked >= 5


def test_repetition_draws_are_not_stored_as_exact_values() -> None:
    """The same solver session asked about a position first along a path that repeats
    and then on its own must give the path-free value (no graph-history interaction)."""
    from games.ai.duel import DuelTable
    from games.ai.solver import Solver

    rng = random.Random(11)
    compared = 0
    for _ in range(300):
        state = random_endgame(rng, rng.randint(4, 6))
        t0, t1 = state.trumps
        solver = Solver(DuelTable((int(t0), int(t1)), collapse=False))
        h0, h1 = state.hand_masks
        me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
        solver.solve(me, opp, state.pile_codes, state.to_move)
        for code in state.legal_move_codes():
            child = state.clone()
            child.apply_code(code)
            if child.outcome() is not None:
                continue
            c0, c1 = child.hand_masks
            cme, copp = (c0, c1) if child.to_move == 0 else (c1, c0)
            # The table now holds whatever the root's search stored about the child.
            value, _ = solver.value(cme, copp, child.pile_codes, child.to_move)
            assert value == minimax(child), child.tpn()
            compared += 1
    assert compared > 300


def test_a_line_too_deep_to_follow_gives_up_instead_of_guessing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import games.ai.solver as solver_module
    from games.ai.solver import SearchTimeout

    monkeypatch.setattr(solver_module, "MAX_PLY", 2)
    deep = next(e for e in ENDGAMES if _cards(e.tpn) == 10 and e.value != 1)
    with pytest.raises(SearchTimeout):
        solve(State.from_tpn(deep.tpn))
