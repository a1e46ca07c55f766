"""Uniformly random moves and random playouts, fast (for the bench and for MCTS rollouts).

Public names: ``random_move_code``, ``random_playout``, ``random_playout_python``.

Neither builds the list of legal moves. On a non-empty pile the legal moves are: each
beater ``b`` followed by each other card of the hand (or ``b`` alone if it is the last
card), plus the take unless the variant is strict and a beater exists. So one random
number below ``beaters * seconds + take`` picks a move with the same probability as a
uniform choice from ``State.legal_moves()``; the k-th card of a mask comes from 12-bit
lookup tables. ``random_playout`` runs that loop on the state's own lists.

With the compiled core built (``games.rules.native``), ``random_playout`` plays the whole
game in one call to it: the core runs Python's Mersenne Twister on the generator's state
(``getstate``/``setstate``), so it draws the same numbers, plays the same moves and leaves
the generator where ``random_playout_python`` would. A generator of another class than
``random.Random`` (whose ``random`` may differ) takes the pure Python path.
"""

from __future__ import annotations

import random
from typing import Final

from games.rules.cards import BEATERS, ace_of
from games.rules.moves import BEAT_BASE, TAKE_BASE
from games.rules.native import core
from games.rules.state import State

_POP12: Final = tuple(i.bit_count() for i in range(4096))
_SELECT12: Final = tuple(tuple(b for b in range(12) if i >> b & 1) for i in range(4096))

# _TAKE_LIMIT[trump][top]: cards a take may take before the pile size caps it.
_TAKE_LIMIT: Final = tuple(
    tuple(36 if top == ace_of(t) else 5 if top // 9 == t else 3 for top in range(36))
    for t in range(4)
)


def kth_card(mask: int, k: int) -> int:
    """The code of the k-th lowest card (from 0) of a mask holding more than k cards."""
    low = mask & 4095
    count = _POP12[low]
    if k < count:
        return _SELECT12[low][k]
    k -= count
    mid = mask >> 12 & 4095
    count = _POP12[mid]
    if k < count:
        return 12 + _SELECT12[mid][k]
    return 24 + _SELECT12[mask >> 24][k - count]


def random_move_code(state: State, rng: random.Random) -> int:
    """A move code drawn uniformly from the legal moves of an unfinished state."""
    if state.is_over():
        raise ValueError("the game is over: there is no legal move")
    mover = state.to_move
    hand = state.hand_mask(mover)
    pile = state.pile_codes
    if not pile:
        return kth_card(hand, int(rng.random() * hand.bit_count()))
    beaters = hand & BEATERS[state.trump(mover)][pile[-1]]
    take = TAKE_BASE + state.take_count()
    if not beaters:
        return take
    size = hand.bit_count()
    seconds = size - 1 if size > 1 else 1
    beats = beaters.bit_count() * seconds
    pick = int(rng.random() * (beats if state.strict else beats + 1))
    if pick == beats:
        return take
    which, second = divmod(pick, seconds)
    beater = kth_card(beaters, which)
    if size == 1:
        return beater
    return BEAT_BASE + 36 * beater + kth_card(hand ^ 1 << beater, second)


def random_playout(state: State, rng: random.Random, max_plies: int = 2000) -> int:
    """Play uniformly random moves until the game ends or ``max_plies`` are played.

    Mutates ``state`` exactly as ``apply_code`` would; returns the number of plies played.
    Repetition is not checked here (a state has no history).
    """
    if core is None or type(rng) is not random.Random:
        return random_playout_python(state, rng, max_plies)
    version, words, gauss = rng.getstate()
    plies: int
    position, plies, words = core.playout(state._trumps, state._hands, state._known,
                                          state._pile, state._out, state.to_move,
                                          state.strict, max_plies, words)
    rng.setstate((version, words, gauss))
    state._hands[:], state._known[:], state._pile[:], state._out[:], state.to_move = position
    return plies


def random_playout_python(state: State, rng: random.Random, max_plies: int = 2000) -> int:
    """``random_playout`` in pure Python (the reference of the compiled one)."""
    # The loop below is apply_code and random_move_code inlined on local names: it is the
    # hot loop of the bench and of rollouts, where a method call per ply costs a third.
    hands = state._hands
    pile = state._pile
    out = state._out
    known = state._known
    n = state.n_players
    strict = state.strict
    beater_rows = [BEATERS[t] for t in state._trumps]
    take_rows = [_TAKE_LIMIT[t] for t in state._trumps]
    rand = rng.random
    mover = state.to_move
    active = n - len(out)
    plies = 0
    while active > 1 and plies < max_plies:
        plies += 1
        hand = hands[mover]
        if pile:
            top = pile[-1]
            beaters = hand & beater_rows[mover][top]
            take = True
            if beaters:
                size = hand.bit_count()
                seconds = size - 1 if size > 1 else 1
                beats = beaters.bit_count() * seconds
                pick = int(rand() * (beats if strict else beats + 1))
                if pick < beats:
                    take = False
                    which, second_index = divmod(pick, seconds)
                    beater = kth_card(beaters, which)
                    if size == 1:
                        bits = 1 << beater
                        pile.append(beater)
                    else:
                        rest = hand ^ 1 << beater
                        second = kth_card(rest, second_index)
                        bits = 1 << beater | 1 << second
                        pile.append(beater)
                        pile.append(second)
                    hand ^= bits
                    hands[mover] = hand
                    known[mover] &= ~bits
            if take:
                count = take_rows[mover][top]
                taken = 0
                for card in pile[-count:]:
                    taken |= 1 << card
                del pile[-count:]
                hands[mover] = hand | taken
                known[mover] |= taken
                mover = mover + 1 if mover + 1 < n else 0
                while not hands[mover]:
                    mover = mover + 1 if mover + 1 < n else 0
                continue
        else:
            card = kth_card(hand, int(rand() * hand.bit_count()))
            bit = 1 << card
            hand ^= bit
            hands[mover] = hand
            known[mover] &= ~bit
            pile.append(card)
        if not hand:
            out.append(mover)
            active -= 1
        mover = mover + 1 if mover + 1 < n else 0
        while not hands[mover]:
            mover = mover + 1 if mover + 1 < n else 0
    state.to_move = mover
    return plies
