"""docs/rules.md, sections "Going out and the end", the house rules and "Resignation and loss
on time": one test per rule, ending with the four end-of-game results listed under the perft
table."""

from __future__ import annotations

import random

import pytest

from games.rules import MOVE_LIMIT, Game, IllegalMoveError, State, Termination, perft
from tests.rules.helpers import after, result


def test_a_player_whose_hand_becomes_empty_after_a_lead_is_out() -> None:
    assert after("SHD 7C/8C9C/TD - 0 -", "7C") == "SHD -/8C9C/TD 7C 1 0"


def test_a_player_whose_second_card_was_their_last_is_out() -> None:
    assert after("CDH 7CJD/8D9H/6HAC 9C 1 -", "8D-9H") == "CDH 7CJD/-/AC6H 9C8D9H 2 1"


def test_a_player_who_beats_with_their_last_card_is_out() -> None:
    assert after("SHD 9C8S/6H/7DTD 7C 1 -", "6H").endswith(" 2 1")


def test_the_order_in_which_players_go_out_is_recorded() -> None:
    state = State.from_tpn("SHDC 7C/8C/9C6D/TCJC - 0 -")
    for move in ("7C", "8C", "+2"):  # seat 0 out, seat 1 beats 7C with its last card, out
        state.apply(move)
    assert state.out == (0, 1)


def test_the_game_goes_on_while_two_players_hold_cards() -> None:
    assert result("SHD 7C/-/TD 8C 0 1") == "ongoing"


def test_the_game_ends_when_at_most_one_player_holds_cards() -> None:
    state = State.from_tpn("SH 8S9C/6H - 0 -")
    state.apply("9C")
    state.apply("6H")  # seat 1 beats with its last card: only seat 0 holds cards
    assert state.is_over()
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply("8S")


def test_the_player_still_holding_cards_is_the_loser() -> None:
    assert result("SH 8C/- 9C6H 0 1") == "loser 0"


def test_with_two_players_the_other_is_the_winner() -> None:
    outcome = State.from_tpn("SH 8C/- 9C6H 0 1").outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert outcome.places == ((1,), (0,))


def test_with_three_or_four_players_the_others_are_ranked_by_the_order_they_went_out() -> None:
    outcome = State.from_tpn("SHDC -/-/7C/- 9C 2 310").outcome()
    assert outcome is not None
    assert outcome.loser == 2
    assert outcome.places == ((3,), (1,), (0,), (2,))
    assert [outcome.place_of(s) for s in range(4)] == [3, 2, 4, 1]


def test_draw_rule_a_last_single_card_that_beats_the_top_card_is_a_draw() -> None:
    outcome = State.from_tpn("SH -/JC 9C 1 0").outcome()
    assert outcome is not None
    assert outcome.termination is Termination.DRAW_RULE
    assert outcome.loser is None
    assert outcome.is_draw


def test_draw_rule_is_reached_in_play_when_the_last_card_could_beat() -> None:
    state = State.from_tpn("SH 8C/JC - 0 -")
    state.apply("8C")
    assert state.tpn() == "SH -/JC 8C 1 0"
    assert result(state.tpn()) == "draw"


def test_draw_rule_in_a_three_player_game_nobody_loses() -> None:
    outcome = State.from_tpn("SHD -/-/TC 9C 2 10").outcome()
    assert outcome is not None
    assert outcome.loser is None
    # The last holder could have gone out at once: it shares the last-out player's place.
    assert outcome.places == ((1,), (0, 2))


# Seat 0 leads 8C, seat 1 beats 9C-8D, seat 0 takes all three, seat 1 leads 7C, seat 0
# beats 9C-8D, seat 1 takes all three: the hands, pile and mover are as at the start.
CYCLE_START = "SH 8CKC/7C9C8D9D - 0 -"
CYCLE = ["8C", "9C-8D", "+3", "7C", "9C-8D", "+3"]


def test_repetition_a_position_occurring_for_the_third_time_is_a_draw() -> None:
    game = Game.from_tpn(CYCLE_START, CYCLE)
    assert game.state.tpn() == CYCLE_START
    assert game.repetitions() == 2  # the start position counts as the first occurrence
    assert game.outcome() is None
    for move in CYCLE:
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.REPETITION
    assert outcome.is_draw
    assert outcome.places == ((0, 1),)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("8C")


def test_repetition_counts_all_hands_the_pile_in_order_the_out_seats_and_the_mover() -> None:
    key = State.from_tpn("SHD 7C/8C/- 9CTC 0 2").key
    assert key() == State.from_tpn("SHD 7C/8C/- 9CTC 0 2").key()
    assert key() != State.from_tpn("SHD 7C/8C/- TC9C 0 2").key()  # pile order
    assert key() != State.from_tpn("SHD 7C/8C/- 9CTC 1 2").key()  # the mover
    assert key() != State.from_tpn("SHD 8C/7C/- 9CTC 0 2").key()  # the hands
    assert State.from_tpn("SHD -/-/7C 9C 2 01").key() != State.from_tpn(
        "SHD -/-/7C 9C 2 10").key()  # the out seats, in order


def test_a_game_that_reaches_2000_moves_is_a_draw() -> None:
    for seed in range(30):
        game = Game.new(2, seed=seed, dealer=0)
        rng = random.Random(seed)
        while not game.is_over():
            if game.ply == MOVE_LIMIT - 1:
                assert game.outcome() is None
            game.play(rng.choice(game.legal_moves()))
        outcome = game.outcome()
        assert outcome is not None
        if outcome.termination is Termination.MOVE_LIMIT:
            assert game.ply == MOVE_LIMIT == 2000
            assert outcome.is_draw
            assert not game.state.is_over()
            return
    raise AssertionError("no random game of 30 reached the move limit")


def test_perft_ignores_the_house_rules() -> None:
    # From a position that Game would call drawn by repetition, perft still counts moves.
    game = Game.from_tpn(CYCLE_START, CYCLE * 2)
    assert game.is_over()
    assert perft(game.state, 1) == 2


def test_a_player_who_resigns_loses() -> None:
    game = Game.from_tpn("SH 7C8C/7D8D - 0 -")
    game.resign(1)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.loser, outcome.winner) == (Termination.RESIGNATION,
                                                                    1, 0)


def test_a_player_who_runs_out_of_time_loses() -> None:
    game = Game.from_tpn("SH 7C8C/7D8D - 0 -", ["7C"])
    game.timeout(1)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.loser) == (Termination.TIMEOUT, 1)
    assert game.legal_moves() == []


def test_with_three_or_four_players_a_resignation_ends_the_game_with_that_player_as_loser() -> None:
    game = Game.from_tpn("SHDC 7C/-/9C6D/TCJC 8C 2 1")
    game.resign(0)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.loser == 0
    assert game.is_over()


def test_players_already_out_keep_their_places_and_those_holding_cards_share_the_rest() -> None:
    game = Game.from_tpn("SHDC 7C/-/9C6D/TCJC 8C 2 1")
    game.timeout(0)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.places == ((1,), (2, 3), (0,))
    assert [outcome.place_of(s) for s in range(4)] == [4, 1, 2, 2]


def test_a_player_already_out_cannot_resign() -> None:
    with pytest.raises(ValueError, match="gone out"):
        Game.from_tpn("SHDC 7C/-/9C6D/TCJC 8C 2 1").resign(1)


# Four end-of-game results of docs/rules.md's perft section.


def test_rules_md_result_jc_against_9c_is_a_draw() -> None:
    assert result("SH -/JC 9C 1 0") == "draw"


def test_rules_md_result_7c_against_9c_is_lost_by_seat_1() -> None:
    assert result("SH -/7C 9C 1 0") == "loser 1"


def test_rules_md_result_two_cards_left_is_lost_by_seat_1() -> None:
    assert result("SH -/JC6H 9C 1 0") == "loser 1"


def test_rules_md_result_6h_against_9c_is_a_draw_as_hearts_are_seat_1s_trump() -> None:
    assert result("SH -/6H 9C 1 0") == "draw"
