"""The random and greedy bots play as docs/ai.md describes them."""

from __future__ import annotations

import random

from games.ai.baseline import beginner_code, greedy_code, random_code
from games.ai.view import legal_codes, view_of
from games.rules.deal import deal
from games.rules.moves import format_move_code
from games.rules.state import State


def greedy(tpn: str) -> str:
    return format_move_code(greedy_code(view_of(State.from_tpn(tpn))))


def test_greedy_beats_with_the_cheapest_card_and_plays_the_least_beatable_second() -> None:
    # Seat 1 (hearts) can beat 8S only with trumps 6H or TH: 6H is the cheaper. Seat 0 can
    # beat KD and TH with AS alone, a tie: the cheaper KD (not a trump) goes.
    assert greedy("SH 7C9HAS/KD6HTH 8S 1 -") == "6H-KD"


def test_greedy_prefers_a_non_trump_beater_to_a_lower_trump() -> None:
    # Seat 0 (spades) facing 9C holds TC (not a trump) and 6S (a trump): TC it is.
    assert greedy("SH TC6S7D/8H9H 9C 0 -").startswith("TC-")


def test_greedy_second_card_is_the_one_the_next_player_can_beat_least() -> None:
    # After TC, seat 1 (hearts: 8H 9H) can beat 7D and 6S with either heart, but AH with
    # neither (a higher heart is needed): AH is the second card.
    assert greedy("SH TC6S7DAH/8H9H 9C 0 -") == "TC-AH"


def test_greedy_takes_when_it_cannot_beat_and_leads_the_least_beatable_card() -> None:
    assert greedy("SH 7H8H/AS TD6CQSJS9SKHAH 1 -") == "+7"
    # Seat 1 (hearts: 6H) can beat both 7C and AS with its trump: a tie at one beater,
    # so the cheaper 7C (not seat 0's trump) is led.
    assert greedy("SH 7CAS/6H8D - 0 -") == "7C"


def test_random_and_beginner_play_legal_moves_and_random_covers_them() -> None:
    rng = random.Random(5)
    state = State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -")
    legal = set(state.legal_move_codes())
    seen = {random_code(view_of(state), rng) for _ in range(200)}
    assert seen == legal
    assert all(beginner_code(view_of(state), rng) in legal for _ in range(200))


def test_view_legal_codes_match_the_rules_engine() -> None:
    rng = random.Random(2)
    for players in (2, 3, 4):
        state = deal(players, seed=players)
        for _ in range(150):
            if state.is_over():
                break
            assert sorted(legal_codes(view_of(state))) == sorted(state.legal_move_codes())
            state.apply_code(rng.choice(state.legal_move_codes()))
