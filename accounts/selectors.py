"""What the account pages read of accounts: users, ratings, the AI's accounts (what a
profile shows of games: `games.profiles.selectors`). Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from accounts import ratings, table_ratings
from accounts.models import PlayerRating, RatingMode, User

RATING_HISTORY_POINTS = 200


def user_get_by_username(*, username: str) -> User | None:
    """The user of that name, ignoring case (names are unique ignoring case)."""
    return User.objects.filter(username__iexact=username).first()


def user_find_for_login(*, identifier: str) -> User | None:
    """The user a log-in name means: the username, or the e-mail address, ignoring case."""
    lookup = Q(username__iexact=identifier)
    if "@" in identifier:
        lookup |= Q(email__iexact=identifier)
    return User.objects.filter(lookup).order_by("id").first()


@dataclass(frozen=True, slots=True)
class RatingSummary:
    rating: int
    deviation: int  # as of now: grown by the inactivity since the last rated game
    provisional: bool
    games: int


def rating_get(*, user: User, mode: str = RatingMode.DUEL,
               now: datetime | None = None) -> RatingSummary:
    """The user's rating of a mode as it stands now (the starting rating if never rated)."""
    return rating_get_many(user_ids=[user.pk], mode=mode, now=now)[user.pk]


def rating_get_many(
    *, user_ids: list[int], mode: str = RatingMode.DUEL, now: datetime | None = None
) -> dict[int, RatingSummary]:
    """The ratings of a mode of many users in one query (lobby, matchmaking, lists of games)."""
    now = now or timezone.now()
    rows = {row.user_id: row
            for row in PlayerRating.objects.filter(user_id__in=user_ids, mode=mode)}
    if mode == RatingMode.TABLE:
        return {user_id: _table_summary(rows.get(user_id)) for user_id in user_ids}
    summaries = {}
    for user_id in user_ids:
        row = rows.get(user_id)
        if row is None:
            standing, games = ratings.Standing.new(), 0
        else:
            standing = ratings.Standing(
                row.rating, row.deviation, row.volatility, row.last_rated_at
            )
            games = row.games
        deviation = ratings.current_deviation(standing, now=now)
        summaries[user_id] = RatingSummary(
            rating=round(standing.rating),
            deviation=round(deviation),
            provisional=ratings.is_provisional(deviation),
            games=games,
        )
    return summaries


@dataclass(frozen=True, slots=True)
class AiAccount:
    level: int
    username: str
    rating: RatingSummary


def ai_accounts() -> list[AiAccount]:
    """The site's AI levels that have accounts on the rating scale, weakest first, with their
    duel ratings (`manage.py ai_accounts`)."""
    users = list(User.objects.filter(ai_level__isnull=False, is_active=True)
                 .order_by("ai_level"))
    ratings = rating_get_many(user_ids=[user.pk for user in users])
    return [AiAccount(level=int(user.ai_level), username=user.username,
                      rating=ratings[user.pk]) for user in users if user.ai_level is not None]


def _table_summary(row: PlayerRating | None) -> RatingSummary:
    """A table rating as shown: its mean and sigma in points (no growth with idle time:
    tau adds its drift at every table, `accounts.table_ratings`)."""
    belief = (table_ratings.TableRating.new() if row is None
              else table_ratings.TableRating.of_display(row.rating, row.deviation))
    return RatingSummary(
        rating=round(belief.display),
        deviation=round(belief.display_deviation),
        provisional=belief.is_provisional,
        games=0 if row is None else row.games,
    )


@dataclass(frozen=True, slots=True)
class RatingPoint:
    at: datetime
    rating: float
