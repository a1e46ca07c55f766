"""Taking moves back: ``State.apply_code``'s undo token, ``Game.undo`` and
``Game.position_keys`` (property tests over random games of 2 to 4 players, hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import Game, Move, State, Termination, perft
from games.rules.playout import random_playout
from games.rules.state import Undo

GAMES = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CYCLE_START = "SH 8CKC/7C9C8D9D - 0 -"
CYCLE = ["8C", "9C-8D", "+3", "7C", "9C-8D", "+3"]


def snapshot(state: State) -> tuple[object, ...]:
    """All a state holds: its TPN, and what everyone knows of each hand (not in a TPN)."""
    return (state.tpn(), state.strict, tuple(state.known_mask(s) for s in range(state.n_players)))


def game_snapshot(game: Game) -> tuple[object, ...]:
    return (snapshot(game.state), game.ply, game.moves, game.move_codes, game.position_keys(),
            game.repetitions(), game.outcome())


def random_start(n_players: int, seed: int, strict: bool, skip: int) -> State:
    """A seeded deal, ``skip`` random plies on (to reach the middle and the end of games)."""
    state = Game.new(n_players, seed=seed, strict=strict).state
    random_playout(state, random.Random(seed), skip)
    return state


@GAMES
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), strict=st.booleans(),
       skip=st.sampled_from([0, 0, 50, 150, 400]), plies=st.integers(1, 120),
       move_seed=st.integers(0, 2**32))
def test_every_move_applied_then_undone_restores_the_exact_state(
    n_players: int, seed: int, strict: bool, skip: int, plies: int, move_seed: int
) -> None:
    state = random_start(n_players, seed, strict, skip)
    start = snapshot(state)
    picks = random.Random(move_seed)
    played: list[tuple[Undo, tuple[object, ...]]] = []
    for _ in range(plies):
        if state.is_over():
            break
        before = snapshot(state)
        for code in state.legal_move_codes():
            token = state.apply_code(code)
            state.undo(token)
            assert snapshot(state) == before, Move.from_code(code)
        move = picks.choice(state.legal_moves())
        token = state.apply(move)  # the checked path returns the same token
        played.append((token, before))
        assert State.from_tpn(state.tpn(), strict) == state
    # Taken back last first, the moves retrace the game to its start.
    for token, before in reversed(played):
        state.undo(token)
        assert snapshot(state) == before
    assert snapshot(state) == start


@GAMES
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), strict=st.booleans(),
       skip=st.sampled_from([0, 50, 300]), plies=st.integers(1, 80),
       move_seed=st.integers(0, 2**32))
def test_game_undo_retraces_the_history_and_the_repetition_counts(
    n_players: int, seed: int, strict: bool, skip: int, plies: int, move_seed: int
) -> None:
    game = Game.from_tpn(random_start(n_players, seed, strict, skip).tpn(), strict=strict)
    picks = random.Random(move_seed)
    history = [game_snapshot(game)]
    while game.ply < plies and not game.is_over():
        game.play(picks.choice(game.legal_moves()))
        history.append(game_snapshot(game))
        keys = game.position_keys()
        assert keys == [game.position_at(ply).key() for ply in range(game.ply + 1)]
        assert keys.count(game.state.key()) == game.repetitions()
    played = game.moves
    while game.ply:
        assert game.undo() == played.pop()
        history.pop()
        assert game_snapshot(game) == history[-1]
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()


def test_undo_takes_back_a_draw_by_repetition() -> None:
    game = Game.from_tpn(CYCLE_START, CYCLE * 2)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.REPETITION
    assert game.position_keys().count(game.state.key()) == 3
    assert str(game.undo()) == "+3"
    assert game.outcome() is None
    game.play("+3")
    assert game.outcome() == outcome


def test_undo_is_refused_after_a_resignation_and_a_clone_undoes_on_its_own() -> None:
    game = Game.from_tpn(CYCLE_START, CYCLE[:3])
    clone = game.clone()
    game.resign(0)
    with pytest.raises(ValueError, match="resignation"):
        game.undo()
    assert str(clone.undo()) == "+3"
    assert clone.ply == 2
    assert game_snapshot(clone) == game_snapshot(Game.from_tpn(CYCLE_START, CYCLE[:2]))
    assert game.ply == 3
    assert game.state == Game.from_tpn(CYCLE_START, CYCLE[:3]).state


def test_position_keys_start_with_the_start_and_are_a_copy() -> None:
    game = Game.from_tpn(CYCLE_START, CYCLE[:2])
    keys = game.position_keys()
    assert keys[0] == State.from_tpn(CYCLE_START).key()
    assert keys[-1] == game.state.key()
    keys.clear()
    assert len(game.position_keys()) == 3


@settings(max_examples=30, deadline=None)
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32),
       skip=st.sampled_from([0, 60, 300]))
def test_perft_leaves_the_state_as_it_found_it(n_players: int, seed: int, skip: int) -> None:
    state = random_start(n_players, seed, False, skip)
    before = snapshot(state)
    perft(state, 3)
    assert snapshot(state) == before
