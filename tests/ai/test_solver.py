"""The exact solver against brute force, the endgame data file, and repetition."""

from __future__ import annotations

import random

import pytest

from games.ai.endgames import ENDGAMES_FILE, load_endgames, random_endgame
from games.ai.solver import solve
from games.rules.game import Game
from games.rules.moves import format_move_code, parse_move_code
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


def test_the_solver_agrees_with_itself_on_a_move_and_its_position() -> None:
    """``QD`` wins here: solving the root must say so, as solving the position after
    ``QD`` does (a repetition draw on one path was once reused on another)."""
    state = State.from_tpn("DH QDJH9S/8C7DAD9HAS - 0 -")
    solution = solve(state)
    values = {format_move_code(c): v for c, v in solution.move_values}
    assert values == {"QD": 1, "9S": 1, "JH": 0}
    child = state.clone()
    child.apply("QD")
    assert solve(child).value == -1
    other = dict(solve(State.from_tpn("CH 7CTCTDTHJHQS/AD 7D 0 -")).move_values)
    assert other[parse_move_code("TC-TH")] == 1


def test_the_winning_moves_come_quickest_first() -> None:
    """The winner plays the shortest win: any winning move, played again and again, need
    never end the game."""
    state = State.from_tpn("HS JD/7CKC8D9DQD6H7SKS - 1 -")
    solution = solve(state)
    assert solution.value == 1
    game = Game(state)
    for _ in range(40):
        if game.is_over():
            break
        here = solve(game.state, game.position_keys())
        game.play(format_move_code(here.moves[0]))
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.loser == 0


def test_the_search_above_the_retrograde_limit_gives_up_on_a_line_too_deep(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import games.ai.solver as solver_module
    from games.ai.duel import DuelTable
    from games.ai.solver import SearchTimeout, Solver

    monkeypatch.setattr(solver_module, "MAX_PLY", 2)
    deep = next(e for e in ENDGAMES if _cards(e.tpn) == 10 and e.value != 1)
    state = State.from_tpn(deep.tpn)
    t0, t1 = state.trumps
    solver = Solver(DuelTable((int(t0), int(t1)), collapse=False), max_states=0)
    h0, h1 = state.hand_masks
    me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
    with pytest.raises(SearchTimeout):
        solver.solve(me, opp, state.pile_codes, state.to_move, all_moves=True)
