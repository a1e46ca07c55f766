"""A brute-force reference: plain minimax over the rules engine's own State, no table,
no ordering, no collapsing; a position repeated on the path is a draw."""

from __future__ import annotations

import random

from games.rules.state import PositionKey, State


def minimax(state: State, path: set[PositionKey] | None = None) -> int:
    """The value for the seat to move: 1 win, 0 draw, -1 loss."""
    path = set() if path is None else path
    key = state.key()
    if key in path:
        return 0
    path.add(key)
    best = -2
    for code in state.legal_move_codes():
        child = state.clone()
        child.apply_code(code)
        outcome = child.outcome()
        if outcome is not None:
            value = 0 if outcome.loser is None else (1 if outcome.loser != state.to_move else -1)
        else:
            value = -minimax(child, path)
        best = max(best, value)
        if best == 1:
            break
    path.discard(key)
    return best


def move_values(state: State) -> dict[int, int]:
    """The value, for the mover, of each legal move."""
    values = {}
    for code in state.legal_move_codes():
        child = state.clone()
        child.apply_code(code)
        outcome = child.outcome()
        if outcome is not None:
            values[code] = 0 if outcome.loser is None else (
                1 if outcome.loser != state.to_move else -1)
        else:
            values[code] = -minimax(child, {state.key()})
    return values


def tiny_position(rng: random.Random, n_cards: int) -> State:
    cards = rng.sample(range(36), n_cards)
    trumps = rng.sample(range(4), 2)
    in_pile = rng.randint(0, n_cards - 2)
    pile, rest = cards[:in_pile], cards[in_pile:]
    split = rng.randint(1, len(rest) - 1)
    hands = [0, 0]
    for card in rest[:split]:
        hands[0] |= 1 << card
    for card in rest[split:]:
        hands[1] |= 1 << card
    return State(trumps, hands, pile, rng.randint(0, 1), [])
