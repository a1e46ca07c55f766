"""Reads of the puzzles."""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.db.models import Exists, F, OuterRef

from accounts import ratings
from accounts.models import RatingMode, User
from accounts.selectors import rating_get
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleStreak, theme_bits
from games.puzzles.players import Streak


def puzzle_export_lines() -> Iterator[str]:
    """One line a puzzle, oldest first: ``TPN | moves | themes | rating``."""
    for puzzle in Puzzle.objects.order_by("pk").iterator(chunk_size=2000):
        yield puzzle.export_line()


def puzzle_next(*, user_id: int | None, target: float, themes: tuple[str, ...] = (),
                low: float | None = None, high: float | None = None,
                exclude: tuple[int, ...] = ()) -> Puzzle | None:
    """The puzzle nearest in rating to ``target`` that the player has never played (an
    account's attempts; a guest's ``exclude``: the ids its session played), with every one
    of ``themes`` and a rating within ``low``..``high``; None if none is left.

    Two index walks on the rating (``puzzle_rating``), one up and one down from the target,
    each stopping at its first puzzle not played (``NOT EXISTS`` on the attempts' unique
    index): the played ones near the player's rating are skipped row by row, so the time
    grows with how many the player has played right there, not with the table."""
    query = Puzzle.objects.all()
    if user_id is not None:
        query = query.exclude(Exists(PuzzleAttempt.objects.filter(puzzle=OuterRef("pk"),
                                                                   user_id=user_id)))
    if exclude:
        query = query.exclude(pk__in=exclude)
    if themes:
        mask = theme_bits(themes)
        query = query.annotate(matched=F("theme_bits").bitand(mask)).filter(matched=mask)
    if low is not None:
        query = query.filter(rating__gte=low)
    if high is not None:
        query = query.filter(rating__lte=high)
    above = query.filter(rating__gte=target).order_by("rating", "pk").first()
    below = query.filter(rating__lt=target).order_by("-rating", "-pk").first()
    if above is None or below is None:
        return above or below
    return above if above.rating - target <= target - below.rating else below


def puzzle_get(*, puzzle_id: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=puzzle_id).first()


def puzzle_target(*, user: User | None, difficulty: str = "normal") -> float:
    """The rating the next puzzle aims at: the player's puzzle rating (a guest's: a new
    player's), ``PUZZLES_DIFFICULTY_POINTS`` lower for "easier" and higher for "harder"."""
    rating = (float(rating_get(user=user, mode=RatingMode.PUZZLE).rating) if user is not None
              else ratings.START_RATING)
    offset = {"easier": -1, "harder": 1}.get(difficulty, 0)
    return rating + offset * settings.PUZZLES_DIFFICULTY_POINTS


def puzzle_attempt_of(*, user: User, puzzle_id: int) -> PuzzleAttempt | None:
    """The account's (one) attempt at the puzzle, if it has played it."""
    return PuzzleAttempt.objects.filter(user=user, puzzle_id=puzzle_id).first()


def streak_get(*, user: User) -> Streak:
    row = PuzzleStreak.objects.filter(user=user).first()
    return Streak(row.current, row.best, row.puzzle_id) if row is not None else Streak()
