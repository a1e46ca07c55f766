"""The daily puzzle: one a calendar day, the same for everyone, and the small picture of
its position that the home page shows."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from games.play.your_turn import SUIT_SIGNS, printed_card
from games.puzzles.models import DailyPuzzle, Puzzle
from games.rules import State
from games.rules.cards import CARD_NAMES


def puzzle_daily(*, day: datetime.date) -> Puzzle | None:
    """The puzzle of ``day``, the same for everyone; None while there is no puzzle.

    The first call of a day chooses it and keeps it (``DailyPuzzle``), every later one
    reads it back (one indexed query): the choice holds all day though ratings move and
    puzzles are added. The choice is a puzzle never the daily one before, well established
    (``PUZZLES_DAILY_MIN_PLAYS`` plays or more) and of middling rating
    (``PUZZLES_DAILY_RATINGS``); on a young site that has none, any puzzle never chosen;
    once every one has been, any. Among those, the one at the day's place in the order of
    ids: the same puzzles and days give the same choices."""
    stored = DailyPuzzle.objects.select_related("puzzle").filter(day=day).first()
    if stored is not None:
        return stored.puzzle
    puzzle = _daily_choose(day)
    if puzzle is None:
        return None
    try:
        with transaction.atomic():
            DailyPuzzle.objects.create(day=day, puzzle=puzzle)
    except IntegrityError:  # chosen at the same moment by another request: theirs stands
        return DailyPuzzle.objects.select_related("puzzle").get(day=day).puzzle
    return puzzle


def _daily_choose(day: datetime.date) -> Puzzle | None:
    offered = Puzzle.objects.filter(retired=False)
    fresh = offered.exclude(pk__in=DailyPuzzle.objects.values("puzzle_id"))
    low, high = settings.PUZZLES_DAILY_RATINGS
    for pool in (fresh.filter(plays__gte=settings.PUZZLES_DAILY_MIN_PLAYS,
                              rating__gte=low, rating__lte=high),
                 fresh, offered):
        count = pool.count()
        if count:
            return pool.order_by("pk")[day.toordinal() % count]
    return None


Card = tuple[str, str, str]
"""(rank as printed, suit sign, suit letter): ("10", "♥", "H")."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A puzzle's position as the home page draws it: both hands (a duel's are open), the
    pile's top card and size, each side's trump (sign, letter) and the rating; not the
    themes, which would give the answer away."""

    hand: tuple[Card, ...]
    """The player's, who is to move."""
    other: tuple[Card, ...]
    pile_top: Card | None
    pile_size: int
    trump: tuple[str, str]
    other_trump: tuple[str, str]
    rating: int


def puzzle_picture(*, puzzle: Puzzle) -> Picture:
    state = State.from_tpn(puzzle.tpn)
    mover = state.to_move
    pile = state.pile_codes

    def hand(seat: int) -> tuple[Card, ...]:
        return tuple(printed_card(str(card)) for card in
                     sorted(state.hand(seat), key=lambda card: card.code))

    def trump(seat: int) -> tuple[str, str]:
        letter = state.trump(seat).letter
        return SUIT_SIGNS[letter], letter

    return Picture(hand=hand(mover), other=hand(1 - mover),
                   pile_top=printed_card(CARD_NAMES[pile[-1]]) if pile else None,
                   pile_size=len(pile), trump=trump(mover), other_trump=trump(1 - mover),
                   rating=round(puzzle.rating))
