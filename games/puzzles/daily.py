"""The daily puzzle: one a calendar day, the same for everyone."""

from __future__ import annotations

import datetime

from games.puzzles.models import Puzzle

SPREAD = 7_919
"""Consecutive days land far apart in the list (a prime: every puzzle comes in turn)."""


def puzzle_daily(*, day: datetime.date) -> Puzzle | None:
    """The day's puzzle, chosen by the date alone among the puzzles stored before the day
    began (a set that nothing changes during the day: every visitor and every process
    agree), or among all of them on a site whose puzzles are all new; None without any."""
    start = datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.UTC)
    for query in (Puzzle.objects.filter(created_at__lt=start), Puzzle.objects.all()):
        count = query.count()
        if count:
            return query.order_by("pk")[day.toordinal() * SPREAD % count]
    return None
