"""Fast playouts of a sampled world (3-4 players): greedy play by everyone, on bit masks.

Public names: ``greedy_full``, ``playout``.

A determinized search plays thousands of games to the end for every move it chooses, so its
playout policy must be cheap. ``greedy_full`` is the greedy baseline of ``baseline.py``
(beat with the cheapest beater; as a lead or a second card, the card the next player can
beat with the fewest cards, then the cheapest) for a world in which every hand is known,
computed straight from the hand masks with precomputed sort keys instead of a
``TableView``; it chooses exactly the move ``greedy_code`` chooses on that world's full view
(a property test holds them together).
"""

from __future__ import annotations

import random

from games.rules.cards import BEATERS
from games.rules.moves import BEAT_BASE, TAKE_BASE
from games.rules.state import State, legal_codes, take_count

# _CHEAP[trump][card]: ``baseline.cheapness`` as one small integer (non-trumps first, then
# rank, then suit), so that keys compare as ints and never tie between two cards.
_CHEAP: tuple[tuple[int, ...], ...] = tuple(
    tuple((card // 9 == trump) * 36 + (card % 9) * 4 + card // 9 for card in range(36))
    for trump in range(4)
)


def _follower(hands: tuple[int, ...], mover: int, mover_out: bool) -> int:
    """The seat that moves after ``mover`` (``view.next_seat`` on full hands)."""
    n = len(hands)
    seat = (mover + 1) % n
    for _ in range(n):
        if seat != mover and hands[seat]:
            return seat
        if seat == mover and not mover_out:
            return seat
        seat = (seat + 1) % n
    return mover


def _least_beatable(cards: int, cheap: tuple[int, ...], follower_hand: int,
                    follower_beaters: tuple[int, ...]) -> int:
    best, best_key = -1, 1 << 30
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        key = (follower_hand & follower_beaters[card]).bit_count() * 128 + cheap[card]
        if key < best_key:
            best, best_key = card, key
        cards ^= low
    return best


def _cheapest(cards: int, cheap: tuple[int, ...]) -> int:
    best, best_key = -1, 1 << 30
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        if cheap[card] < best_key:
            best, best_key = card, cheap[card]
        cards ^= low
    return best


def greedy_full(state: State, trumps: tuple[int, ...]) -> int:
    """The greedy move of the seat to move in a world where every hand is known."""
    hands = state.hand_masks
    mover = state.to_move
    hand = hands[mover]
    trump = trumps[mover]
    cheap = _CHEAP[trump]
    pile = state.pile_codes
    if not pile:
        follower = _follower(hands, mover, hand & (hand - 1) == 0)
        return _least_beatable(hand, cheap, hands[follower], BEATERS[trumps[follower]])
    beaters = hand & BEATERS[trump][pile[-1]]
    if not beaters:
        return TAKE_BASE + take_count(pile, trump)
    beater = _cheapest(beaters, cheap)
    rest = hand ^ (1 << beater)
    if not rest:
        return beater
    follower = _follower(hands, mover, rest & (rest - 1) == 0)
    second = _least_beatable(rest, cheap, hands[follower], BEATERS[trumps[follower]])
    return BEAT_BASE + 36 * beater + second


def playout(state: State, rng: random.Random, max_plies: int, noise: float) -> int:
    """Play ``state`` on (in place) with greedy moves, a random legal one with probability
    ``noise``, for at most ``max_plies`` plies; returns the plies played."""
    trumps = tuple(int(t) for t in state.trumps)
    strict = state.strict
    plies = 0
    while plies < max_plies and not state.is_over():
        if noise and rng.random() < noise:
            mover = state.to_move
            code = rng.choice(legal_codes(state.hand_mask(mover), state.pile_codes,
                                          trumps[mover], strict))
        else:
            code = greedy_full(state, trumps)
        state.apply_code(code)
        plies += 1
    return plies
