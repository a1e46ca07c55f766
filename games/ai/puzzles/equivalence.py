"""Moves that differ only by interchangeable cards.

Public names: ``move_signature``, ``card_labels``.

Two cards of one suit that the mover holds and that are adjacent in rank among the cards in
play (the hands and the pile: a card in the pile can come back by a take, so it still
separates its neighbours) are interchangeable, unless one is the ace of somebody's trump
(that ace takes the whole pile). This is the relation the search collapses
(``games.ai.duel.DuelTable.representatives``); here it only groups the moves that the exact
solver, run with every card apart, proved: a puzzle accepts every move the solver proved
winning, and its answer is unique when those moves all have one signature.
"""

from __future__ import annotations

from games.ai.duel import DuelTable
from games.rules.cards import SUIT_MASKS, mask_codes
from games.rules.moves import BEAT_BASE, TAKE_BASE

Signature = tuple[int, ...]


def card_labels(table: DuelTable, me: int, present: int) -> dict[int, int]:
    """For every card of the mover's hand ``me``, the lowest card of its run of
    interchangeable cards (``present``: every card in play)."""
    labels: dict[int, int] = {}
    special = table.special
    for card in mask_codes(me):
        below = present & SUIT_MASKS[card // 9] & ((1 << card) - 1)
        if below and me >> (below.bit_length() - 1) & 1 and not special >> card & 1:
            labels[card] = labels[below.bit_length() - 1]
        else:
            labels[card] = card
    return labels


def move_signature(code: int, labels: dict[int, int]) -> Signature:
    """The class of a move: its cards replaced by their runs' labels (a take is its own)."""
    if code >= TAKE_BASE:
        return (code,)
    if code < BEAT_BASE:
        return (labels[code],)
    beater, second = divmod(code - BEAT_BASE, 36)
    return (labels[beater], labels[second])
