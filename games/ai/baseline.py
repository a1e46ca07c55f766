"""The baseline bots: uniformly random, greedy, and the beginner (greedy with human slips).

Public names: ``random_code``, ``greedy_code``, ``beginner_code``, ``cheapness``.

Greedy: beat whenever it can, with the cheapest beater (non-trump before trump,
lower rank first); as the second card, and as a lead, play the card that the fewest of the
next player's cards can beat. With hidden hands "the next player's cards" are counted by
expectation over the unseen cards, so greedy never reads a hidden card either.
"""

from __future__ import annotations

import random

from games.ai.view import TableView, legal_codes, next_seat
from games.rules.cards import BEATERS, mask_codes
from games.rules.moves import BEAT_BASE, TAKE_BASE


def random_code(view: TableView, rng: random.Random) -> int:
    return rng.choice(legal_codes(view))


def cheapness(card: int, trump: int) -> tuple[int, int, int]:
    """Sort key of what a card costs to give up: non-trumps before trumps, low ranks first."""
    return (card // 9 == trump, card % 9, card // 9)


def _least_beatable(view: TableView, cards: int, mover_out_after: bool) -> int:
    """The card of ``cards`` the next player can beat with the fewest cards (then cheapest)."""
    trump = view.trumps[view.to_move]
    follower = next_seat(view, view.to_move, mover_out_after)
    return min(mask_codes(cards),
               key=lambda c: (view.expected_beaters(follower, c), cheapness(c, trump)))


def greedy_code(view: TableView, rng: random.Random | None = None) -> int:
    """The greedy move (deterministic; ``rng`` is accepted for a uniform bot signature)."""
    hand = view.hand
    trump = view.trumps[view.to_move]
    pile = view.pile
    if not pile:
        return _least_beatable(view, hand, hand & (hand - 1) == 0)
    beaters = hand & BEATERS[trump][pile[-1]]
    if not beaters:
        return next(c for c in legal_codes(view) if c > TAKE_BASE)
    beater = min(mask_codes(beaters), key=lambda c: cheapness(c, trump))
    rest = hand ^ (1 << beater)
    if not rest:
        return beater
    second = _least_beatable(view, rest, rest & (rest - 1) == 0)
    return BEAT_BASE + 36 * beater + second


def beginner_code(view: TableView, rng: random.Random, slip: float = 0.7) -> int:
    """Level 1: plays like greedy, but with probability ``slip`` makes a human mistake —
    takes although it could beat, spends its dearest beater, or throws a random card."""
    if rng.random() >= slip:
        return greedy_code(view)
    codes = legal_codes(view)
    kind = rng.random()
    take = [c for c in codes if c > TAKE_BASE]
    if take and kind < 0.3:
        return take[0]
    beats = [c for c in codes if c < TAKE_BASE]
    if beats and kind < 0.6:
        trump = view.trumps[view.to_move]
        # The dearest beater, as a beginner who "plays safe" with a big trump would.
        def dearness(code: int) -> tuple[int, int, int]:
            card = code if code < BEAT_BASE else (code - BEAT_BASE) // 36
            return cheapness(card, trump)
        top = max(dearness(c) for c in beats)
        return rng.choice([c for c in beats if dearness(c) == top])
    return rng.choice(codes)
