"""The duel on bare masks, for search: move generation with equivalent cards collapsed,
move ordering, playing a move, and the end of the game.

Public names: ``DuelTable``, ``Key``.

A position is ``(me, opp, pile, mover)``: the mover's and the other seat's hand masks,
the pile as a tuple of card codes (bottom first) and the mover's seat (it picks the trump).
Moves are the rules engine's integer codes.

Equivalent cards. Swapping two cards of one suit that are adjacent in rank among the
cards *in play* (hands and pile: a card in the pile can come back by a take, so it still
separates its neighbours) keeps every "beats" relation except the one between the two cards
themselves, and every take count unless one of them is the ace of somebody's trump (that
ace takes the whole pile). So when the mover holds both, leading or playing one or the other
gives positions that are mirror images of each other, except in lines where one of the pair
ends on top of the pile while the other one is in the hand of the player to move: those
lines are rare, and the exact solver checks the collapse on every position it is asked to
prove (``collapse=False``) when exactness matters more than speed. The heuristic search
always collapses: it searches one card of each run of equivalent cards.
"""

from __future__ import annotations

from typing import Final

from games.rules.cards import BEATERS, SUIT_MASKS, ace_of, mask_codes, mask_of
from games.rules.moves import BEAT_BASE, TAKE_BASE

Key = tuple[int, int, tuple[int, ...], int]

WIN: Final = 1
DRAW: Final = 0


class DuelTable:
    """The fixed part of a duel (the two trumps) and the move machinery that depends on it."""

    def __init__(self, trumps: tuple[int, int], strict: bool = False,
                 collapse: bool = True) -> None:
        self.trumps = trumps
        self.strict = strict
        self.rows = (BEATERS[trumps[0]], BEATERS[trumps[1]])
        self.trump_masks = (SUIT_MASKS[trumps[0]], SUIT_MASKS[trumps[1]])
        self.special = mask_of(ace_of(t) for t in trumps)
        self.collapse = collapse
        self._reps: dict[tuple[int, int], int] = {}

    # --- equivalent cards -------------------------------------------------------------

    def representatives(self, cards: int, present: int) -> int:
        """The cards of ``cards`` left after collapsing runs of equivalent cards to their
        lowest card (see the module docstring)."""
        if not self.collapse:
            return cards
        key = (cards, present)
        reps = self._reps.get(key)
        if reps is not None:
            return reps
        reps = cards
        special = self.special
        for card in mask_codes(cards):
            below = present & SUIT_MASKS[card // 9] & ((1 << card) - 1)
            if below and cards >> (below.bit_length() - 1) & 1 and not special >> card & 1:
                reps ^= 1 << card
        if len(self._reps) > 200_000:
            self._reps.clear()
        self._reps[key] = reps
        return reps

    # --- moves ------------------------------------------------------------------------

    def take_count(self, pile: tuple[int, ...], mover: int) -> int:
        top = pile[-1]
        trump = self.trumps[mover]
        if top // 9 != trump:
            return min(3, len(pile))
        if top == ace_of(trump):
            return len(pile)
        return min(5, len(pile))

    def ordered_moves(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                      first: int = -1) -> list[int]:
        """The mover's moves, one per class of equivalent moves, most promising first:
        ``first`` (a search's best move from its table) if it is among them, then moves
        that go out, seconds and leads the opponent cannot beat (they force a take), cheap
        beaters before dear ones, the take last."""
        opp_row = self.rows[1 - mover]
        present = me | opp | mask_of(pile)
        reps = self.representatives(me, present)
        moves: list[int]
        if not pile:
            if me & (me - 1) == 0:
                return [me.bit_length() - 1]
            moves = sorted(mask_codes(reps), key=lambda c: ((opp & opp_row[c]).bit_count(),
                                                            c % 9))
        else:
            beaters = reps & self.rows[mover][pile[-1]]
            take = TAKE_BASE + self.take_count(pile, mover)
            takes = [] if self.strict and beaters else [take]
            if me & (me - 1) == 0:
                moves = [beaters.bit_length() - 1, *takes] if beaters else takes
            else:
                my_trump = self.trumps[mover]
                scored: list[tuple[int, int]] = []
                for beater in mask_codes(beaters):
                    rest = me ^ (1 << beater)
                    cost = (beater // 9 == my_trump) * 16 + beater % 9
                    base = BEAT_BASE + 36 * beater
                    seconds = self.representatives(rest, present)
                    out_now = rest & (rest - 1) == 0
                    for second in mask_codes(seconds):
                        threat = (opp & opp_row[second]).bit_count()
                        score = cost + 4 * threat - (1000 if out_now else 0)
                        scored.append((score, base + second))
                scored.sort()
                moves = [code for _, code in scored] + takes
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    @staticmethod
    def play(me: int, pile: tuple[int, ...], code: int) -> tuple[int, tuple[int, ...]]:
        """The mover's hand and the pile after the move (the other hand does not change)."""
        if code < BEAT_BASE:
            return me ^ (1 << code), (*pile, code)
        if code < TAKE_BASE:
            beater, second = divmod(code - BEAT_BASE, 36)
            return me ^ (1 << beater | 1 << second), (*pile, beater, second)
        count = code - TAKE_BASE
        for card in pile[-count:]:
            me |= 1 << card
        return me, pile[:-count]

    def out_value(self, opp: int, pile: tuple[int, ...], mover: int) -> int:
        """The value, for the mover, of having just gone out: a win, or a draw when the
        other seat's single last card beats the top card (the draw rule)."""
        if opp & (opp - 1) == 0 and opp & self.rows[1 - mover][pile[-1]]:
            return DRAW
        return WIN

    def wins_now(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> int | None:
        """A move that goes out at once and wins (not a draw), if there is one."""
        if me & (me - 1) == 0:
            if not pile:
                return (me.bit_length() - 1
                        if self.out_value(opp, (me.bit_length() - 1,), mover) == WIN else None)
            if me & self.rows[mover][pile[-1]]:
                card = me.bit_length() - 1
                return card if self.out_value(opp, (card,), mover) == WIN else None
            return None
        if not pile or me.bit_count() != 2:
            return None
        low = me & -me
        high = me ^ low
        for beater, second in ((low, high), (high, low)):
            if beater & self.rows[mover][pile[-1]]:
                b, x = beater.bit_length() - 1, second.bit_length() - 1
                if self.out_value(opp, (x,), mover) == WIN:
                    return BEAT_BASE + 36 * b + x
        return None
