"""docs/rules.md, sections "Cards and players", "Trumps" and "The deal": one test per rule."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from games.rules import (
    ALL_CARDS,
    Card,
    InvalidNotationError,
    Outcome,
    State,
    Suit,
    Termination,
    TrumpChoice,
    deal,
    first_dealer,
    next_dealer,
)
from games.rules.cards import mask_codes
from games.rules.deal import dealt_hands
from games.rules.observation import Observation

RULES_EXAMPLE = "SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -"


def _names(mask: int) -> set[str]:
    return {str(ALL_CARDS[c]) for c in mask_codes(mask)}


# --- Cards, players, trumps -----------------------------------------------------------


def test_the_pack_has_36_cards_ranks_6_to_ace_in_four_suits() -> None:
    assert len(ALL_CARDS) == 36
    assert {str(c) for c in ALL_CARDS} == {r + s for r in "6789TJQKA" for s in "CDHS"}


def test_ranks_go_from_six_low_to_ace_high() -> None:
    ranks = [Card.parse(f"{r}H").rank for r in "6789TJQKA"]
    assert ranks == sorted(ranks)


def test_a_card_is_written_rank_then_suit_with_t_for_the_ten() -> None:
    assert str(Card.parse("TS").rank) == "T"
    assert [str(Card.parse(t)) for t in ("9H", "TS", "AC")] == ["9H", "TS", "AC"]
    with pytest.raises(InvalidNotationError):
        Card.parse("H9")


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_two_three_or_four_players_play(n_players: int) -> None:
    state = deal(n_players, seed=1, dealer=0)
    assert state.n_players == n_players
    assert len(state.legal_moves()) == state.hand_size(1)


@pytest.mark.parametrize("n_players", [1, 5])
def test_no_other_number_of_players(n_players: int) -> None:
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        deal(n_players, seed=1, dealer=0)


def test_seats_are_numbered_clockwise_from_zero() -> None:
    # Clockwise is increasing seat number: seat 0 leads, then seat 1 moves.
    state = State.from_tpn("SHD 7C/9D/TD - 0 -")
    state.apply("7C")
    assert state.to_move == 1


def test_each_player_has_their_own_trump_suit_no_two_share_one() -> None:
    with pytest.raises(InvalidNotationError, match="share a trump"):
        State.from_tpn("HH 7C/8C - 0 -")
    with pytest.raises(InvalidNotationError, match="share"):
        deal(2, seed=1, dealer=0, trumps="SS")


def test_trumps_are_chosen_in_turn_order_starting_with_the_player_who_will_lead() -> None:
    choice = TrumpChoice(n_players=3, dealer=1)
    assert choice.chooser == 2  # seat dealer + 1 leads, so chooses first
    choice = choice.choose(Suit.HEARTS)
    assert choice.chooser == 0
    choice = choice.choose("C")
    assert choice.chooser == 1
    assert choice.free_suits == (Suit.DIAMONDS, Suit.SPADES)
    choice = choice.choose(Suit.SPADES)
    assert choice.done
    assert choice.chooser is None
    assert choice.trumps() == (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)


def test_a_suit_already_chosen_cannot_be_chosen_again() -> None:
    choice = TrumpChoice(2, 0).choose("S")
    with pytest.raises(ValueError, match="already"):
        choice.choose("S")


def test_a_player_who_does_not_choose_in_time_gets_a_random_free_suit() -> None:
    choice = TrumpChoice(4, 3).choose("S").choose("C")
    given = Counter(choice.random_free_suit(random.Random(seed)) for seed in range(200))
    assert set(given) == {Suit.DIAMONDS, Suit.HEARTS}
    assert choice.choose_random(random.Random(0)).chosen[:2] == (Suit.SPADES, Suit.CLUBS)


# --- The deal -------------------------------------------------------------------------


@pytest.mark.parametrize(("n_players", "dealer"), [(2, 0), (2, 1), (3, 2), (4, 1)])
def test_the_deal_is_one_card_at_a_time_clockwise_from_the_dealers_left(
    n_players: int, dealer: int
) -> None:
    deck = list(range(36))
    random.Random(99).shuffle(deck)
    hands = dealt_hands(n_players, 99, dealer)
    for i, code in enumerate(deck):
        assert hands[(dealer + 1 + i) % n_players] >> code & 1


@pytest.mark.parametrize(("n_players", "size"), [(2, 18), (3, 12), (4, 9)])
def test_all_36_cards_are_dealt_18_12_or_9_each(n_players: int, size: int) -> None:
    hands = dealt_hands(n_players, 5, 0)
    assert [h.bit_count() for h in hands] == [size] * n_players
    whole = 0
    for hand in hands:
        whole |= hand
    assert whole == (1 << 36) - 1


def test_the_deal_is_determined_by_the_seed() -> None:
    assert deal(3, seed=42, dealer=0).tpn() == deal(3, seed=42, dealer=0).tpn()
    assert deal(3, seed=42, dealer=0).tpn() != deal(3, seed=43, dealer=0).tpn()
    with pytest.raises(TypeError, match="int"):
        deal(2, seed="42", dealer=0)  # type: ignore[arg-type]


def _seed_where(condition: Callable[[list[int]], int], n_players: int) -> int:
    for seed in range(1000):
        if condition(dealt_hands(n_players, seed, 0)):
            return seed
    raise AssertionError("no such seed in 1000")


def test_sixes_of_another_players_trump_are_given_to_that_player() -> None:
    six_of_hearts = 1 << Card.parse("6H").code  # seat 1's trump in "SH"
    seed = _seed_where(lambda hands: hands[0] & six_of_hearts, 2)
    before = dealt_hands(2, seed, 0)
    state = deal(2, seed=seed, dealer=0, trumps="SH")
    assert state.hand_mask(1) & six_of_hearts
    assert not state.hand_mask(0) & six_of_hearts
    six_of_spades = 1 << Card.parse("6S").code  # seat 0's trump: seat 1 gives it if held
    assert state.hand_size(1) == before[1].bit_count() + 1 - bool(before[1] & six_of_spades)


def test_sixes_of_a_suit_that_is_nobodys_trump_stay_where_they_are() -> None:
    for seed in range(30):
        before = dealt_hands(2, seed, 0)
        state = deal(2, seed=seed, dealer=0, trumps="SH")
        for six in ("6C", "6D"):
            bit = 1 << Card.parse(six).code
            assert [bool(h & bit) for h in before] == [bool(state.hand_mask(s) & bit)
                                                       for s in (0, 1)]


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_player_starts_with_at_least_one_trump(n_players: int) -> None:
    for seed in range(100):
        state = deal(n_players, seed=seed, dealer=seed % n_players)
        for seat in range(n_players):
            trump = state.trump(seat)
            assert Card.of(Card.parse("6C").rank, trump) in state.hand(seat)


def test_hand_sizes_may_differ_after_the_sixes() -> None:
    sizes = {tuple(deal(3, seed=s, dealer=0).hand_size(p) for p in range(3)) for s in range(50)}
    assert (12, 12, 12) in sizes
    assert any(len(set(s)) > 1 for s in sizes)
    assert all(sum(s) == 36 for s in sizes)


@pytest.mark.parametrize(("n_players", "dealer"), [(2, 0), (2, 1), (3, 2), (4, 2)])
def test_the_player_to_the_dealers_left_leads(n_players: int, dealer: int) -> None:
    state = deal(n_players, seed=3, dealer=dealer)
    assert state.to_move == (dealer + 1) % n_players
    assert not state.pile


def test_the_first_dealer_is_random() -> None:
    dealers = Counter(first_dealer(3, seed) for seed in range(300))
    assert set(dealers) == {0, 1, 2}
    assert first_dealer(3, 17) == first_dealer(3, 17)  # reproducible from the seed
    assert deal(3, seed=17).to_move == (first_dealer(3, 17) + 1) % 3


def test_in_a_rematch_the_loser_of_the_previous_game_deals() -> None:
    lost = Outcome.normal([2, 0], 1)
    assert next_dealer(0, loser=lost.loser, n_players=3) == 1


def test_after_a_draw_the_deal_passes_to_the_left() -> None:
    drawn = Outcome.drawn(Termination.REPETITION, 3, [])
    assert next_dealer(2, loser=drawn.loser, n_players=3) == 0


def test_the_duel_is_a_game_of_perfect_information() -> None:
    state = deal(2, seed=8, dealer=1)
    for seat in (0, 1):
        observation = Observation.of_state(state, seat)
        assert observation.is_complete
        assert observation.tpn() == state.tpn()


@pytest.mark.parametrize("n_players", [3, 4])
def test_with_three_or_four_players_a_player_sees_only_their_own_hand_and_the_sizes(
    n_players: int,
) -> None:
    state = deal(n_players, seed=8, dealer=0)
    observation = Observation.of_state(state, 1)
    assert observation.known[1] == state.hand_mask(1)
    for seat in range(n_players):
        assert observation.hand_size(seat) == state.hand_size(seat)
        if seat != 1:
            # Only the seat's own trump six is known: the sixes rule put it there.
            assert _names(observation.known[seat]) == {f"6{state.trump(seat)}"}


def test_the_rules_md_example_is_a_two_player_deal_with_seat_1_the_dealer() -> None:
    state = State.from_tpn(RULES_EXAMPLE)
    assert state.to_move == 0  # the dealer's left
    assert state.hand_size(0) + state.hand_size(1) == 36
    assert "6S" in _names(state.hand_mask(0))
    assert "6H" in _names(state.hand_mask(1))
