"""choose_move always returns a legal move, at every level, in every kind of position."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import (
    LEVEL_RATINGS,
    LEVELS,
    STAND_IN_MIN_LEVEL,
    STRONGEST,
    choose_move,
    level_budget,
    level_for_rating,
)
from games.ai.levels import choose_code
from games.rules.deal import deal
from games.rules.game import Game
from games.rules.moves import format_move_code
from games.rules.observation import Observation
from games.rules.state import State


def _walk(players: int, seed: int, plies: int) -> State:
    state = deal(players, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        codes = state.legal_move_codes()
        if not codes:
            break
        child = state.clone()
        child.apply_code(rng.choice(codes))
        if child.is_over():
            break
        state = child
    return state


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 120), level=st.integers(1, STRONGEST))
def test_choose_move_is_always_legal(players: int, seed: int, plies: int, level: int) -> None:
    state = _walk(players, seed, plies)
    move = choose_move(state, level, movetime=0.05, rng=random.Random(seed))
    assert move in state.legal_moves()


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 60))
def test_a_stop_request_returns_a_legal_move_at_once(players: int, seed: int,
                                                     plies: int) -> None:
    state = _walk(players, seed, plies)
    began = time.monotonic()
    move = choose_move(state, STRONGEST, movetime=30.0, should_stop=lambda: True)
    assert time.monotonic() - began < 3.0
    assert move in state.legal_moves()


def test_choose_move_takes_a_game_and_an_observation() -> None:
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -")
    assert choose_move(game, movetime=0.2) in game.legal_moves()
    state = deal(4, 3)
    observation = Observation.of_state(state, state.to_move)
    assert choose_move(observation, movetime=0.1) in state.legal_moves()


def test_levels_have_budgets_for_the_web_page() -> None:
    assert [lv.number for lv in LEVELS] == list(range(1, STRONGEST + 1))
    assert level_budget(1) == 0.0
    assert 0.1 <= level_budget(STRONGEST) <= 2.0
    budgets = [level_budget(n) for n in range(1, STRONGEST + 1)]
    assert budgets == sorted(budgets)


def test_the_strongest_level_respects_its_movetime() -> None:
    state = deal(2, 7)
    began = time.monotonic()
    choose_move(state, STRONGEST, movetime=0.3)
    assert time.monotonic() - began < 0.3 + 0.25


def test_tables_have_a_budget_of_their_own_that_keeps_three_ai_moves_short() -> None:
    # One person and three AI seats wait for three AI moves between two of the person's.
    for level in LEVELS:
        for players in (3, 4):
            assert 0.0 <= level_budget(level.number, players) <= 0.5
    assert level_budget(STRONGEST, 4) >= 0.2
    # The duel's search is compiled, the table's Monte Carlo is not: it keeps more time.
    assert level_budget(STRONGEST) < level_budget(STRONGEST, 4)


@given(st.floats(0.0, 4000.0))
def test_a_stand_in_plays_at_least_level_3_and_stronger_for_stronger_players(
        rating: float) -> None:
    level = level_for_rating(rating)
    assert STAND_IN_MIN_LEVEL <= level <= STRONGEST
    assert level_for_rating(rating + 200.0) >= level


def test_a_stand_in_is_the_level_whose_rating_is_nearest() -> None:
    for level, rating in LEVEL_RATINGS.items():
        assert level_for_rating(rating) == max(level, STAND_IN_MIN_LEVEL)
    assert level_for_rating(800.0) == STAND_IN_MIN_LEVEL
    assert level_for_rating(3000.0) == STRONGEST
    with pytest.raises(ValueError, match="finite"):
        level_for_rating(float("nan"))


def test_the_expert_finds_the_win_the_exact_solver_proves() -> None:
    """Ten cards, a win by 7C, KC, QD, 7S or KS (the other leads lose): the expert solves
    it by retrograde analysis (a third of a second on one core; the budget here only
    leaves room for a loaded machine) and plays the quickest win."""
    state = State.from_tpn("HS JD/7CKC8D9DQD6H7SKS - 1 -")
    code = choose_code(state, STRONGEST, movetime=20.0)
    assert format_move_code(code) in {"7C", "KC", "QD", "7S", "KS"}
