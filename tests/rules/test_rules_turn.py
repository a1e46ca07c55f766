"""docs/rules.md, section "A turn" and "Move notation": one test per rule."""

from __future__ import annotations

import pytest

from games.rules import IllegalMoveError, State
from tests.rules.helpers import after, legal

# Seat 0 has spades, seat 1 hearts (and seat 2 diamonds where there is one).


def test_play_goes_clockwise() -> None:
    state = State.from_tpn("SHD 7C8C/9D7D/TH8H - 0 -")
    state.apply("7C")
    assert state.to_move == 1
    state.apply("+1")
    assert state.to_move == 2


def test_play_skips_players_who_have_gone_out() -> None:
    assert after("SHD 7C8C/-/TH8H - 0 1", "7C").split()[3] == "2"
    assert after("SHDC 7C8C/-/-/TH8H - 0 21", "7C").split()[3] == "3"


def test_there_is_one_face_up_pile_shared_by_all() -> None:
    # Every card played goes on the one pile, and a take takes from it.
    assert after("SHD 7C8C/9C7D/TH8H - 0 -", "7C", "9C-7D") == "SHD 8C/-/8HTH 7C9C7D 2 1"
    assert after("SHD 7C8C/9C7D/TH8H - 0 -", "7C", "9C-7D", "+3") == (
        "SHD 8C/-/7C9C7D8HTH - 0 1")


def test_on_an_empty_pile_the_player_leads_any_one_card() -> None:
    assert legal("SH 7C9HAS/KD6HTH - 0 -") == {"7C", "9H", "AS"}


def test_a_lead_is_the_whole_turn() -> None:
    assert after("SH 7C9HAS/KD6HTH - 0 -", "9H") == "SH 7CAS/KD6HTH 9H 1 -"


def test_on_a_pile_the_player_either_beats_or_takes() -> None:
    moves = legal("SH 7C9HAS/KD6HTH 8S 1 -")
    assert moves == {"6H-KD", "6H-TH", "TH-KD", "TH-6H", "+1"}
    with pytest.raises(IllegalMoveError, match="KD does not beat 8S"):
        State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -").apply("KD-6H")


def test_a_beat_is_followed_by_any_second_card_from_the_hand() -> None:
    assert {m for m in legal("SH 7C9HAS/KD6HTH 8S 1 -") if m.startswith("6H")} == {
        "6H-KD", "6H-TH"}
    assert after("SH 7C9HAS/KD6HTH 8S 1 -", "6H-KD") == "SH 7C9HAS/TH 8S6HKD 0 -"


def test_a_higher_card_of_the_same_suit_beats() -> None:
    assert "9C-KD" in legal("SH 7S/7C9CKD 8C 1 -")


def test_a_lower_card_of_the_same_suit_does_not_beat() -> None:
    with pytest.raises(IllegalMoveError, match="7C does not beat 8C"):
        State.from_tpn("SH 7S/7C9CKD 8C 1 -").apply("7C-9C")


def test_a_card_of_another_suit_that_is_not_the_movers_trump_does_not_beat() -> None:
    assert not any(m.startswith("KD") for m in legal("SH 7S/7C9CKD 8C 1 -"))


def test_a_card_of_the_movers_own_trump_suit_beats_any_card_of_another_suit() -> None:
    assert {"6H-7C", "6H-9D"} <= legal("SH 7S/6H7C9D AS 1 -")
    assert {"6S-7C"} <= legal("SH 6S7C/9D AH 0 -")


def test_only_the_movers_own_trump_suit_has_power() -> None:
    # 6S is seat 0's trump: in seat 1's hand it is a plain card.
    with pytest.raises(IllegalMoveError, match="6S does not beat 9C"):
        State.from_tpn("SH 7S/6S7C 9C 1 -").apply("6S-7C")


def test_whose_trump_the_top_card_was_does_not_matter() -> None:
    # 9S is seat 0's trump; seat 1 beats it like any plain card: a higher spade or a heart.
    assert legal("SH 7S/TS6H8S 9S 1 -") == {"TS-6H", "TS-8S", "6H-TS", "6H-8S", "+1"}


def test_a_card_of_your_own_trump_is_beaten_by_you_only_with_a_higher_card_of_that_suit() -> None:
    assert legal("SH 7S/JH7HAS 9H 1 -") == {"JH-7H", "JH-AS", "+1"}


def test_there_is_no_obligation_to_follow_suit() -> None:
    # Holding the higher club TC, seat 1 may still trump the 9C with 6H.
    assert {"TC-6H", "6H-TC"} <= legal("SH 7S/TC6H 9C 1 -")


def test_beating_with_the_last_card_has_no_second_card_and_the_player_is_out() -> None:
    assert legal("SHD 9C8S/6H/7DTD 7C 1 -") == {"6H", "+1"}
    assert after("SHD 9C8S/6H/7DTD 7C 1 -", "6H") == "SHD 9C8S/-/7DTD 7C6H 2 1"


def test_a_lone_beater_that_is_not_the_last_card_needs_a_second_card() -> None:
    with pytest.raises(IllegalMoveError, match="not seat 1's last card"):
        State.from_tpn("SH 7S/TC6H 9C 1 -").apply("6H")


def test_take_the_top_3_when_the_top_card_is_not_the_movers_trump() -> None:
    assert after("SH 7S/6D 7C8C9CTC 1 -", "+3") == "SH 7S/8C9CTC6D 7C 0 -"


def test_take_the_whole_pile_if_it_has_3_or_fewer_and_the_top_is_not_the_movers_trump() -> None:
    assert legal("SH 7S/6D 8CAC 1 -") == {"+2"}


def test_take_the_top_5_when_the_top_card_is_the_movers_trump_but_not_its_ace() -> None:
    assert after("SH 7S/6D 7C8C9CTCJCKH 1 -", "+5") == "SH 7S/8C9CTCJC6DKH 7C 0 -"


def test_take_the_whole_pile_if_it_has_5_or_fewer_and_the_movers_trump_is_on_top() -> None:
    assert legal("SH 7S/6D 8C9CKH 1 -") == {"+3"}


def test_take_the_whole_pile_when_the_top_card_is_the_ace_of_the_movers_trump() -> None:
    assert legal("SH 7H8H/AS TD6CQSJS9SKHAH 1 -") == {"+7"}


def test_the_ace_of_another_players_trump_is_taken_like_any_plain_card() -> None:
    assert legal("SH 7H/9D 6CTDQSJSAS 1 -") == {"+3"}


def test_the_take_count_must_be_the_one_the_rules_give() -> None:
    with pytest.raises(IllegalMoveError, match=r"illegal move \+2: the rules give \+3 here"):
        State.from_tpn("SH 7S/6D 7C8C9CTC 1 -").apply("+2")


def test_there_is_nothing_to_take_from_an_empty_pile() -> None:
    with pytest.raises(IllegalMoveError, match="nothing to take"):
        State.from_tpn("SH 7S/6D - 1 -").apply("+1")


def test_a_lead_needs_an_empty_pile() -> None:
    with pytest.raises(IllegalMoveError, match="the pile is empty: lead a single card"):
        State.from_tpn("SH 7S/6D7D - 1 -").apply("6D-7D")


def test_a_card_not_in_the_hand_cannot_be_played() -> None:
    with pytest.raises(IllegalMoveError, match="QS is not in seat 1's hand"):
        State.from_tpn("SH 7S/6D7D - 1 -").apply("QS")
    with pytest.raises(IllegalMoveError, match="9H is not in seat 1's hand"):
        State.from_tpn("SH 7S/6H7D 9C 1 -").apply("6H-9H")


def test_taking_is_allowed_even_when_the_player_could_beat() -> None:
    assert "+1" in legal("SH 7C9HAS/KD6HTH 8S 1 -")


def test_in_the_strict_variant_a_player_who_can_beat_must_beat() -> None:
    assert "+1" not in legal("SH 7C9HAS/KD6HTH 8S 1 -", strict=True)
    with pytest.raises(IllegalMoveError, match="strict variant seat 1 must beat 8S"):
        State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -", strict=True).apply("+1")


def test_in_the_strict_variant_a_player_who_cannot_beat_takes() -> None:
    assert legal("SH 7S/6D7D 9C 1 -", strict=True) == {"+1"}


def test_after_a_take_the_turn_passes_on() -> None:
    assert after("SHD 7S/6D/9D 7C8C9CTC 1 -", "+3").split()[3] == "2"


def test_after_a_take_the_next_player_must_beat_or_take_the_card_now_on_top() -> None:
    # Seat 1 takes 3 of 4: 6C is now on top, and seat 2 must answer it as if just played.
    tpn = after("SHD 7S/6D/7C8D 6C7DTCJC 1 -", "+3")
    assert tpn == "SHD 7S/TCJC6D7D/7C8D 6C 2 -"
    assert legal(tpn) == {"7C-8D", "8D-7C", "+1"}


def test_after_a_take_of_the_whole_pile_the_next_player_leads() -> None:
    tpn = after("SHD 7S/6D/7C8D 7DTCJC 1 -", "+3")
    assert legal(tpn) == {"7C", "8D"}


@pytest.mark.parametrize(
    ("tpn", "move"),
    [
        ("SH 7C9HAS/KD6HTH - 0 -", "9H"),  # lead: the card
        ("SH 7C9HAS/KD6HTH 8S 1 -", "6H-KD"),  # beat then second card
        ("SH 7H8H/AS TD6CQSJS9S8SKS 1 -", "AS"),  # beat with the last card: the card alone
        ("SH 7C9HAS/KD6HTH 8S 1 -", "+1"),  # take: + and the number taken
    ],
)
def test_move_notation_of_rules_md(tpn: str, move: str) -> None:
    assert move in legal(tpn)
