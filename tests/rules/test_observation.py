"""Observation: what one seat may know, its TPN with ?N, and parsing it back."""

from __future__ import annotations

import random

import pytest

from games.rules import Game, IllegalMoveError, InvalidNotationError, Observation, State, deal


def test_in_the_duel_a_seat_observes_the_whole_position() -> None:
    state = State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -")
    observation = Observation.of_state(state, 0)
    assert observation.is_complete
    assert observation.tpn() == state.tpn()
    assert observation.to_state() == state


def test_with_three_players_other_hands_are_written_as_question_marks() -> None:
    state = deal(3, seed=11, dealer=2)
    assert state.tpn() == ("SHD JCACQDAD9HTHJHAH6S9SQSAS/8CKC8D9DJDKD6H7HQH8STSKS/"
                           "6C7C9CTCQC6D7DTD8HKH7SJS - 0 -")
    # Each seat's own trump six is known to all: the sixes rule put it in that hand.
    assert Observation.of_state(state, 0).tpn() == "SHD JCACQDAD9HTHJHAH6S9SQSAS/6H?11/6D?11 - 0 -"
    assert Observation.of_state(state, 2).tpn() == "SHD 6S?11/6H?11/6C7C9CTCQC6D7DTD8HKH7SJS - 0 -"


def test_cards_taken_in_view_of_everyone_become_known_until_played() -> None:
    game = Game.from_tpn("SHD 7C8C/9D7D/TH8H - 0 -")
    game.play("7C")
    game.play("+1")  # seat 1 takes the 7C in view of everyone
    assert game.observation(2).tpn() == "SHD ?1/7C?2/8HTH - 2 -"
    game.play("TH")
    game.play("+1")  # seat 0 takes the TH
    assert game.observation(1).tpn() == "SHD TH?1/7C7D9D/?1 - 1 -"
    game.play("7C")  # seat 1 plays the known 7C: what is left of its hand is unknown again
    assert game.observation(2).tpn() == "SHD TH?1/?2/8H 7C 2 -"


def test_when_only_one_other_hand_is_unknown_a_full_pack_reveals_it_by_elimination() -> None:
    game = Game.new(3, seed=4, dealer=0)
    rng = random.Random(1)
    while len(game.state.out) == 0:
        game.play(rng.choice(game.legal_moves()))
    assert not game.is_over()
    (gone,) = game.state.out
    for seat in range(3):
        observation = game.observation(seat)
        # The two players still in know each other's hand; the one out sees neither.
        assert observation.is_complete is (seat != gone)
        if seat != gone:
            assert observation.tpn() == game.state.tpn()


def test_without_a_full_pack_elimination_does_not_apply() -> None:
    state = State.from_tpn("SHD 7C8C/-/9DTD - 0 1")
    assert Observation.of_state(state, 0).tpn() == "SHD 7C8C/-/?2 - 0 1"


def test_observation_tpn_round_trips_and_the_observer_defaults_to_the_mover() -> None:
    text = "SHD JCACQDAD9HTHJHAH6S9SQSAS/6H?11/6D?11 - 0 -"
    observation = Observation.from_tpn(text)
    assert observation.seat == 0
    assert observation.tpn() == text
    assert [observation.hand_size(s) for s in range(3)] == [12, 12, 12]
    assert Observation.from_tpn("SHD ?3/9HQS?5/6D - 0 -", seat=2).tpn() == (
        "SHD ?3/9HQS?5/6D - 0 -")


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("SHD ?3/9HQS?5/6D - 0 -", "observer, seat 0, must see its own hand"),
        ("SHD 7C/9H?0/6D - 0 -", "count 1..36"),
        ("SHD 7C/9H?/6D - 0 -", "count 1..36"),
        ("SHD 7C/9H?3QS/6D - 0 -", "count 1..36"),
        ("SHD 7C/9H?37/6D - 0 -", "more than 36"),
        ("SHD 7C/?30/?10 - 0 -", "more than 36 cards"),
    ],
)
def test_malformed_observations_are_rejected(text: str, fault: str) -> None:
    with pytest.raises(InvalidNotationError, match=fault) as info:
        Observation.from_tpn(text)
    assert str(info.value).startswith("invalid observation: ")


def test_sample_state_fills_the_hidden_cards_with_unseen_ones() -> None:
    state = deal(4, seed=9, dealer=3)
    observation = Observation.of_state(state, 0)
    for seed in range(5):
        sample = observation.sample_state(random.Random(seed))
        assert sample.hand_mask(0) == state.hand_mask(0)
        for seat in range(4):
            assert sample.hand_size(seat) == state.hand_size(seat)
            assert sample.hand_mask(seat) & observation.known[seat] == observation.known[seat]
        assert sample.legal_moves() == state.legal_moves()
        assert Observation.of_state(sample, 0) == observation


def test_the_observer_to_move_knows_its_legal_moves() -> None:
    state = State.from_tpn("SHD 7C9HAS/KD6HTH/8D 8S 1 -")
    observation = Observation.of_state(state, 1)
    assert observation.tpn() == "SHD ?3/KD6HTH/?1 8S 1 -"
    assert observation.legal_moves() == state.legal_moves()
    with pytest.raises(ValueError, match="not to move"):
        Observation.of_state(state, 0).legal_moves()
    with pytest.raises(ValueError, match="hides cards"):
        observation.to_state()


def test_play_follows_the_game_from_the_observers_seat() -> None:
    game = Game.from_tpn("SHD 7C8C/9D7D/TH8H - 0 -")
    observation = game.observation(2)
    for move in ("7C", "+1", "TH", "+1", "7C"):
        observation = observation.play(move)
        game.play(move)
        assert observation == game.observation(2)
    assert observation.tpn() == "SHD TH?1/?2/8H 7C 2 -"


def test_play_rejects_what_cannot_be_legal_from_what_the_observer_knows() -> None:
    def seen_by_0(text: str, strict: bool = False) -> Observation:
        return Observation.from_tpn(text, seat=0, strict=strict)

    with pytest.raises(IllegalMoveError, match="9H cannot be in seat 2's hand"):
        seen_by_0("SHD 7S8S9S/9HQS?5/6D 7C 2 -").play("6D-9H")
    with pytest.raises(IllegalMoveError, match="6D is not seat 2's last card"):
        seen_by_0("SHD 7S8S9S/9HQS?5/6D?1 7C 2 -").play("6D")
    with pytest.raises(IllegalMoveError, match="not that many unknown cards"):
        seen_by_0("SHD 7S8S9S/9HQS?1/6D 7C 1 -").play("6H-7H")
    with pytest.raises(IllegalMoveError, match="AH does not beat 7C"):
        seen_by_0("SHD 7S8S9S/9HQS?5/6D?3 7C 2 -").play("AH-7H")
    with pytest.raises(IllegalMoveError, match=r"the rules give \+1 here"):
        seen_by_0("SHD 7S8S9S/9HQS?5/6D?3 7C 2 -").play("+3")
    with pytest.raises(IllegalMoveError, match="must beat 7C"):
        seen_by_0("SHD 7S8S9S/9HQS?5/6D8D 7C 2 -", strict=True).play("+1")
    after = seen_by_0("SHD 7S8S9S/9HQS?5/6D 7C 2 -").play("6D")
    assert after.tpn() == "SHD 7S8S9S/9HQS?5/- 7C6D 0 2"
    assert not after.is_over()


def test_play_places_the_last_unknown_hand_by_elimination() -> None:
    clubs_diamonds = "6C7C8C9CTCJCQCKC6D7D8D9DTDJDQDKDAD"
    hearts_spades = "6H7H8H9HTHJHQHKHAH6S7S8S9STSJSQSKSAS"
    state = State.from_tpn(f"SHD AC/{clubs_diamonds}/{hearts_spades} - 0 -")
    before = Observation.of_state(state, 1)
    assert before.tpn() == f"SHD ?1/{clubs_diamonds}/6H6S?16 - 0 -"
    after = before.play("AC")  # seat 0 goes out: only seat 2's cards are left unplaced
    assert after.tpn() == f"SHD -/{clubs_diamonds}/{hearts_spades} AC 1 0"
    state.apply("AC")
    assert after == Observation.of_state(state, 1)
