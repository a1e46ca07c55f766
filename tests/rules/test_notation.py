"""Cards, moves and TPN as notation: parsing, canonical output, exact round trips, errors."""

from __future__ import annotations

import pytest

from games.rules import (
    ALL_CARDS,
    RANKS,
    SUITS,
    Card,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    Rank,
    State,
    Suit,
    format_cards,
    parse_cards,
)

RULES_EXAMPLE = "SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -"


# --- cards ----------------------------------------------------------------------------


def test_card_parse_and_str_round_trip_for_every_card() -> None:
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert Card.from_code(card.code) is card
        assert Card.of(card.rank, card.suit) is card


def test_card_attributes() -> None:
    card = Card.parse("9H")
    assert (card.suit, card.rank, card.code, str(card)) == (Suit.HEARTS, Rank.NINE, 21, "9H")
    assert Card.parse("AS").code == 35
    assert Card.parse("6C").code == 0


def test_card_codes_follow_the_canonical_order_by_suit_then_rank() -> None:
    names = [str(c) for c in sorted(ALL_CARDS)]
    assert names[:10] == ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "6D"]
    assert names[-1] == "AS"


def test_cards_are_immutable_and_hashable() -> None:
    card = Card.parse("TS")
    with pytest.raises(AttributeError):
        card.code = 3  # type: ignore[misc]
    assert {card, Card.parse("TS")} == {card}


@pytest.mark.parametrize("text", ["", "9", "1H", "9X", "9h", "10H", "9HH", " 9H"])
def test_a_bad_card_is_an_invalid_notation_error_naming_it(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="is not a card"):
        Card.parse(text)


def test_invalid_notation_and_illegal_move_errors_are_value_errors() -> None:
    assert issubclass(InvalidNotationError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)


def test_suits_and_ranks_in_order() -> None:
    assert "".join(str(s) for s in SUITS) == "CDHS"
    assert "".join(str(r) for r in RANKS) == "6789TJQKA"
    assert Suit.parse("D") is Suit.DIAMONDS
    assert Rank.parse("T") is Rank.TEN
    with pytest.raises(InvalidNotationError):
        Suit.parse("X")
    with pytest.raises(InvalidNotationError):
        Rank.parse("1")


def test_parse_and_format_card_runs() -> None:
    cards = parse_cards("9HQS")
    assert [str(c) for c in cards] == ["9H", "QS"]
    assert format_cards(cards) == "9HQS"
    assert format_cards([]) == "-"
    with pytest.raises(InvalidNotationError, match="twice"):
        parse_cards("9H9H")
    with pytest.raises(InvalidNotationError, match="odd length"):
        parse_cards("9HQ")


# --- moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["9H", "QH-7D", "QH", "+3", "+1", "+36", "AS-6C"])
def test_move_notation_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert Move.from_code(move.code) == move


def test_move_kinds() -> None:
    assert Move.parse("9H").kind is MoveKind.LEAD
    beat = Move.parse("QH-7D")
    assert beat.kind is MoveKind.BEAT
    assert (str(beat.card), str(beat.second)) == ("QH", "7D")
    take = Move.parse("+3")
    assert (take.kind, take.count, take.card) == (MoveKind.TAKE, 3, None)


def test_a_lone_card_is_a_beat_with_the_last_card_when_the_pile_is_not_empty() -> None:
    state = State.from_tpn("SH 7H8H/AS TD6CQSJS9S8SKS 1 -")
    move = Move.parse("AS", state)
    assert move.kind is MoveKind.BEAT
    assert move.second is None
    assert move == Move.parse("AS")  # moves compare by notation
    assert Move.parse("AS") in state.legal_moves()
    assert Move.parse("9C", State.from_tpn("SH 8S9C/6H - 0 -")).kind is MoveKind.LEAD


def test_move_constructors_and_immutability() -> None:
    nine = Card.parse("9H")
    assert Move.lead(nine) == Move.parse("9H")
    assert Move.beat(Card.parse("QH"), Card.parse("7D")) == Move.parse("QH-7D")
    assert Move.take(5) == Move.parse("+5")
    with pytest.raises(AttributeError):
        Move.take(5).count = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="second card"):
        Move.beat(nine, nine)
    with pytest.raises(ValueError, match="take"):
        Move.take(0)


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("", "expected a card"),
        ("Q", "expected a card"),
        ("QH-", "expected a card"),
        ("QH-QH", "differ"),
        ("QH_7D", "expected a card"),
        ("+", "count"),
        ("+0", "count"),
        ("+03", "count"),
        ("+37", "cannot take 37"),
        ("+x", "count"),
        ("ZZ", "is not a card"),
        ("qh-7d", "is not a card"),
    ],
)
def test_bad_move_notation_is_rejected_with_what_is_wrong(text: str, fault: str) -> None:
    with pytest.raises(InvalidNotationError, match=fault) as info:
        Move.parse(text)
    assert str(info.value).startswith(f"invalid move {text!r}: ")


# --- TPN ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tpn",
    [
        RULES_EXAMPLE,
        "SH 7C9HAS/KD6HTH 8S 1 -",
        "CDH 7CJD/8D9H/AC6H 9C 1 -",
        "SH -/JC 9C 1 0",
        "SHDC 6CJCACKDAS/TDQD8S9SJSKS/9CTCQCKCAD6H8HTHQHKHAH6S7STS/7DJD7H9HJH 8DQS7C8C6D9D 1 -",
        "SHD -/7C8C9CACQDADAH6S8SQS/TC8H9HTHJHQHKH7STS 9SAS7D9D6DTDKC6HKS8D6CJCJDKDJS7HQC 2 0",
    ],
)
def test_canonical_tpn_round_trips_exactly(tpn: str) -> None:
    assert State.from_tpn(tpn).tpn() == tpn


def test_tpn_hands_may_be_given_in_any_order_and_come_out_canonical() -> None:
    assert State.from_tpn("SH AS9H7C/THKD6H 8S 1 -").tpn() == "SH 7C9HAS/KD6HTH 8S 1 -"
    # Two positions of the perft data file, written out of canonical order.
    assert State.from_tpn("SH 8S9C/6H - 0 -").tpn() == "SH 9C8S/6H - 0 -"
    assert State.from_tpn("CDH 7CJD/8D9H/6HAC 9C 1 -").tpn() == "CDH 7CJD/8D9H/AC6H 9C 1 -"


def test_the_pile_keeps_its_order() -> None:
    state = State.from_tpn("SH 7H8H/AS TD6CQSJS9SKHAH 1 -")
    assert [str(c) for c in state.pile] == ["TD", "6C", "QS", "JS", "9S", "KH", "AH"]
    assert str(state.top) == "AH"


@pytest.mark.parametrize(
    ("tpn", "fault"),
    [
        ("SH 7C/8C - 0", "expected 5 fields"),
        ("SH  7C/8C - 0 -", "expected 5 fields"),
        ("S 7C - 0 -", "2 to 4 suit letters"),
        ("SHDCS 7C/8C/9C/TC/JC - 0 -", "2 to 4 suit letters"),
        ("SX 7C/8C - 0 -", "'X' is not a suit"),
        ("SS 7C/8C - 0 -", "share a trump"),
        ("SH 7C - 0 -", "1 hands for 2 trump suits"),
        ("SH 7C/8C/9C - 0 -", "3 hands for 2 trump suits"),
        ("SH 7C/ - 0 -", "blank"),
        ("SH 7C/8Z - 0 -", "seat 1's hand"),
        ("SH 7C/7C - 0 -", "7C is both in seat 0's hand and in seat 1's hand"),
        ("SH 7C/8C 7C 0 -", "7C is both in seat 0's hand and in the pile"),
        ("SH 7C/8C 9C9C 0 -", "twice"),
        ("SH 7C/8C - 2 -", "to-move '2' is not a seat"),
        ("SH 7C/8C - x -", "to-move 'x' is not a seat"),
        ("SH 7C/- - 0 -", "seat 1 has no cards but is not listed as out"),
        ("SH 7C/8C - 0 1", "seat 1 is listed as out but holds cards"),
        ("SH -/- - 0 01", "every seat is out"),
        ("SHD -/-/7C - 0 011", "listed as out twice"),
        ("SH -/7C - 0 0", "seat 0 is to move but has gone out"),
        ("SH 7C?3/8C - 0 -", "only for observations"),
    ],
)
def test_malformed_tpn_is_rejected_with_what_is_wrong(tpn: str, fault: str) -> None:
    with pytest.raises(InvalidNotationError, match=fault) as info:
        State.from_tpn(tpn)
    assert str(info.value).startswith("invalid TPN: ")
    assert "\n" not in str(info.value)
