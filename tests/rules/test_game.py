"""Game: history, replays, clones and the ways a game ends that the board does not show."""

from __future__ import annotations

import pytest

from games.rules import (
    Game,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    Termination,
    TrumpChoice,
)
from games.rules.deal import first_dealer


def test_new_game_is_the_seeded_deal() -> None:
    game = Game.new(3, seed=12, dealer=1, trumps="CDH", strict=True)
    assert (game.seed, game.dealer, game.strict, game.n_players) == (12, 1, True, 3)
    assert [str(s) for s in game.state.trumps] == ["C", "D", "H"]
    assert game.state.to_move == 2
    assert game.state == Game.new(3, seed=12, dealer=1, trumps="CDH", strict=True).state


def test_a_game_with_a_seed_must_start_from_that_deal() -> None:
    dealt = Game.new(2, seed=5, dealer=0).start
    assert Game(dealt, seed=5, dealer=0).ply == 0
    with pytest.raises(ValueError, match="not the deal of seed 6"):
        Game(dealt, seed=6, dealer=0)
    with pytest.raises(ValueError, match="by dealer None"):
        Game(dealt, seed=5)


def test_new_game_without_a_seed_draws_one_and_records_it() -> None:
    game = Game.new()
    assert isinstance(game.seed, int)
    assert game.dealer == first_dealer(2, game.seed)
    assert Game.new(seed=game.seed).state == game.state


def test_play_accepts_text_or_moves_and_returns_the_resolved_move() -> None:
    game = Game.from_tpn("SH 7H8H/AS TD6CQSJS9S8SKS 1 -")
    move = game.play("AS")
    assert move.kind is MoveKind.BEAT
    assert game.moves == [move]
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -")
    assert game.play(Move.parse("6H-KD")) == Move.parse("6H-KD")
    assert game.legal_moves() == [Move.parse(m) for m in ("AS-7C", "AS-9H", "+3")]


def test_an_illegal_move_changes_nothing() -> None:
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -")
    with pytest.raises(IllegalMoveError, match="KD does not beat 8S"):
        game.play("KD-6H")
    with pytest.raises(InvalidNotationError):
        game.play("K")
    assert game.ply == 0
    assert game.state.tpn() == "SH 7C9HAS/KD6HTH 8S 1 -"


def test_position_at_replays_any_ply() -> None:
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -", ["6H-KD", "+3", "TH"])
    assert game.position_at(0).tpn() == "SH 7C9HAS/KD6HTH 8S 1 -"
    assert game.position_at(1).tpn() == "SH 7C9HAS/TH 8S6HKD 0 -"
    assert game.position_at(3) == game.state
    with pytest.raises(IndexError):
        game.position_at(4)


def test_movers_names_the_seat_that_played_each_move() -> None:
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -", ["6H-KD", "+3", "TH"])
    assert game.movers() == [1, 0, 1]
    assert Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -").movers() == []


def test_clone_is_independent() -> None:
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -", ["6H-KD"])
    copy = game.clone()
    copy.play("+3")
    assert (game.ply, copy.ply) == (1, 2)
    assert game.state.tpn() == "SH 7C9HAS/TH 8S6HKD 0 -"
    assert copy.moves[:1] == game.moves


def test_the_state_of_a_game_ends_normally() -> None:
    game = Game.from_tpn("SH 8C9C/6H - 0 -", ["9C", "6H"])
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.loser, outcome.result) == (Termination.NORMAL, 0,
                                                                    "loser 0")
    with pytest.raises(ValueError, match="already over"):
        game.resign(0)


def test_abort_ends_without_a_result() -> None:
    game = Game.from_tpn("SH 8S9C/6H - 0 -")
    game.abort()
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.loser, outcome.result) == (Termination.ABORTED, None,
                                                                    "aborted")
    assert not outcome.is_draw
    with pytest.raises(IllegalMoveError, match=r"the game is over \(aborted\)"):
        game.play("9C")


def test_resign_and_timeout_need_a_seat_at_the_table() -> None:
    with pytest.raises(ValueError, match="not at this table"):
        Game.from_tpn("SH 8S9C/6H - 0 -").resign(2)


def test_every_termination_has_a_distinct_reason() -> None:
    values = [t.value for t in Termination]
    assert len(set(values)) == len(values)
    assert {t for t in Termination if t.is_draw} == {
        Termination.DRAW_RULE, Termination.REPETITION, Termination.MOVE_LIMIT,
        Termination.AGREEMENT}


def test_the_observation_of_a_game_tracks_takes() -> None:
    game = Game.from_tpn("SHD 7C8C/9D7D/TH8H - 0 -", ["7C", "+1"])
    observation = game.observation(0)
    assert observation.tpn() == "SHD 8C/7C?2/?2 - 2 -"


def test_outcome_places_and_winner() -> None:
    outcome = Game.from_tpn("SHD -/-/TC 9C 2 10").outcome()  # draw rule, 3 players
    assert outcome is not None
    assert outcome.winner is None
    assert [outcome.place_of(s) for s in range(3)] == [2, 1, 2]
    with pytest.raises(ValueError, match="not in this game"):
        outcome.place_of(3)


def test_trumps_are_known_only_once_everyone_has_chosen() -> None:
    with pytest.raises(ValueError, match="seat 1 has not chosen"):
        TrumpChoice(2, dealer=0).trumps()
