"""Reads of the puzzles."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import F, FilteredRelation, Q, QuerySet, Subquery

from accounts import ratings
from accounts.models import RatingMode, User
from accounts.selectors import RATING_HISTORY_POINTS, RatingPoint, rating_get
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleStreak, theme_bits
from games.puzzles.players import Streak

NEAR_ENTRIES = 32
"""How many index entries the next-puzzle choice first reads on each side of the target."""
HISTORY_PAGE_SIZE = 20


def puzzle_export_lines() -> Iterator[str]:
    """One line a puzzle, oldest first: ``TPN | moves | themes | rating``."""
    for puzzle in Puzzle.objects.order_by("pk").iterator(chunk_size=2000):
        yield puzzle.export_line()


def puzzle_next(*, user_id: int | None, target: float, themes: tuple[str, ...] = (),
                low: float | None = None, high: float | None = None,
                exclude: tuple[int, ...] = ()) -> Puzzle | None:
    """The puzzle nearest in rating to ``target`` that the player has never played (an
    account's attempts; a guest's ``exclude``: the ids its session played), with every one
    of ``themes`` and a rating within ``low``..``high``; None if none is left. Of two as
    near, the harder.

    Two queries whatever the player has played. The walks go along the covering rating
    index (``puzzle_rating_walk``: rating, id, theme bits), up and down from the target,
    reading the index alone. The first query takes the ``NEAR_ENTRIES`` nearest entries of
    each side with the account's attempt at each (a probe of the attempts' unique index):
    for most players an unplayed one is among them. The second reads the rows chosen, and
    walks on along a side whose entries were all played, if its next one could still be the
    nearest, against a hash of all the player's attempts built once (``NOT IN`` a subquery,
    hashed while it fits PostgreSQL's ``hash_mem``: about 150,000 attempts): the block
    played around a keen player's rating costs a hash probe a puzzle, not an index probe
    and a row read."""
    query = _matching(themes=themes, low=low, high=high)
    if exclude:
        query = query.exclude(pk__in=exclude)
    sides = (query.filter(rating__gte=target).order_by("rating", "pk"),
             query.filter(rating__lt=target).order_by("-rating", "-pk"))
    if user_id is None:
        found: Iterable[Puzzle] = _rows_of([side[:1] for side in sides])
    else:
        found = Puzzle.objects.filter(_unplayed_nearest(sides, target=target, user_id=user_id))
    return min(found, key=lambda puzzle: _distance(puzzle.rating, target), default=None)


def _matching(*, themes: tuple[str, ...], low: float | None,
              high: float | None) -> QuerySet[Puzzle]:
    """The puzzles still offered (not retired) with every one of ``themes`` and a rating
    within ``low``..``high``."""
    query = Puzzle.objects.filter(retired=False)
    if themes:
        mask = theme_bits(themes)
        query = query.annotate(matched=F("theme_bits").bitand(mask)).filter(matched=mask)
    if low is not None:
        query = query.filter(rating__gte=low)
    if high is not None:
        query = query.filter(rating__lte=high)
    return query


def puzzle_absence(*, themes: tuple[str, ...] = (), low: float | None = None,
                   high: float | None = None) -> str:
    """Why there is no next puzzle for a player: ``"none_yet"`` (no puzzle at all),
    ``"no_match"`` (none with these themes and ratings) or ``"all_played"`` (the player has
    played every one that matches)."""
    if not Puzzle.objects.filter(retired=False).exists():
        return "none_yet"
    if (themes or low is not None or high is not None) and not _matching(
            themes=themes, low=low, high=high).exists():
        return "no_match"
    return "all_played"


def _distance(rating: float, target: float) -> tuple[float, bool]:
    """What orders candidates: nearness, then the harder of two as near."""
    return abs(rating - target), rating < target


def _rows_of(parts: Sequence[QuerySet[Any]]) -> list[Any]:
    """The rows of sliced querysets: one ``UNION ALL`` where the database takes a limit in
    each part (PostgreSQL), else a query each (SQLite)."""
    if connection.features.supports_slicing_ordering_in_compound:
        return list(parts[0].union(*parts[1:], all=True))
    return [row for part in parts for row in part]


def _unplayed_nearest(sides: tuple[QuerySet[Puzzle], QuerySet[Puzzle]], *, target: float,
                      user_id: int) -> Q:
    """Which puzzles to read: on each side, the nearest the account has not played, or a
    walk to it where the first entries were all played (none where the other side's is
    nearer for certain)."""
    near = _rows_of([
        side.annotate(mine=FilteredRelation("attempts", condition=Q(attempts__user_id=user_id)))
        .values_list("pk", "rating", "mine__id")[:NEAR_ENTRIES] for side in sides])
    above = sorted((row for row in near if row[1] >= target), key=lambda row: (row[1], row[0]))
    below = sorted((row for row in near if row[1] < target), key=lambda row: (-row[1], -row[0]))
    found: list[tuple[int, float]] = []
    beyond: list[tuple[QuerySet[Puzzle], float]] = []
    for side, entries in zip(sides, (above, below), strict=True):
        unplayed = next(((pk, rating) for pk, rating, attempt in entries if attempt is None),
                        None)
        if unplayed is not None:
            found.append(unplayed)
        elif len(entries) == NEAR_ENTRIES:
            beyond.append((side, entries[-1][1]))
    wanted = Q(pk__in=[pk for pk, _rating in found])
    played = PuzzleAttempt.objects.filter(user_id=user_id).values("puzzle_id")
    for side, last in beyond:
        # Every entry further along this side is at least as far as the last one read.
        if not any(_distance(rating, target) < _distance(last, target) for _pk, rating in found):
            wanted |= Q(pk=Subquery(side.exclude(pk__in=played).values("pk")[:1]))
    return wanted


@dataclass(frozen=True, slots=True)
class PlayedPuzzle:
    """One puzzle an account played, as its profile lists it."""

    puzzle_id: int
    solved: bool
    rating_after: int | None
    rating_delta: int | None
    played_at: datetime


def puzzle_history_page(*, user_id: int, page_number: int | str | None = 1,
                        per_page: int = HISTORY_PAGE_SIZE) -> tuple[Page[Any], list[PlayedPuzzle]]:
    """One page of the puzzles an account played, newest first (its attempts' index), and
    its rows; a page number that is not one gives the first page, one past the end the
    last."""
    attempts = (PuzzleAttempt.objects.filter(user_id=user_id)
                .order_by("-played_at", "-pk")
                .values_list("puzzle_id", "solved", "rating_before", "rating_after", "played_at"))
    page = Paginator(attempts, per_page).get_page(page_number)
    rows = [PlayedPuzzle(puzzle_id, solved,
                         round(after) if after is not None else None,
                         round(after) - round(before)
                         if after is not None and before is not None else None,
                         played_at)
            for puzzle_id, solved, before, after, played_at in page.object_list]
    return page, rows


def puzzle_rating_history(*, user_id: int,
                          limit: int = RATING_HISTORY_POINTS) -> list[RatingPoint]:
    """The account's puzzle rating after each rated puzzle, oldest first (the latest
    ``limit``), for the profile's chart."""
    rows = list(PuzzleAttempt.objects.filter(user_id=user_id, rating_after__isnull=False)
                .order_by("-played_at", "-pk").values_list("played_at", "rating_after")[:limit])
    rows.reverse()
    return [RatingPoint(at=at, rating=rating) for at, rating in rows]


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
