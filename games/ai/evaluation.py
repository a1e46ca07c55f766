"""The heuristic value of a duel position for the side to move, in hundredths of a card.

Public names: ``evaluate``, ``WIN_SCORE``.

Fewer cards is what wins, so the hand-size difference dominates. On top of it: own trumps
(they beat every card of another suit), cards the other side cannot beat with anything it
holds (played as a second card they force a take of three), and, when the mover faces a
card it cannot beat, the take it is forced into.
"""

from __future__ import annotations

from typing import Final

from games.ai.duel import DuelTable
from games.rules.cards import mask_codes

WIN_SCORE: Final = 100_000
"""A win at ply p scores WIN_SCORE - p: heuristic scores stay far below it."""

CARD: Final = 100
TRUMP: Final = 25
SAFE: Final = 12


def _unbeatable(cards: int, against: int, row: tuple[int, ...]) -> int:
    return sum(1 for card in mask_codes(cards) if not against & row[card])


def evaluate(table: DuelTable, me: int, opp: int, pile: tuple[int, ...], mover: int) -> int:
    my_row, opp_row = table.rows[mover], table.rows[1 - mover]
    score = CARD * (opp.bit_count() - me.bit_count())
    score += TRUMP * ((me & table.trump_masks[mover]).bit_count()
                      - (opp & table.trump_masks[1 - mover]).bit_count())
    score += SAFE * (_unbeatable(me, opp, opp_row) - _unbeatable(opp, me, my_row))
    if pile and not me & my_row[pile[-1]]:
        score -= (CARD * 3 // 4) * table.take_count(pile, mover)
    return score
