"""What the lobby, challenge and leaderboard pages and the lobby socket read."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from accounts import ratings
from accounts.models import PlayerRating, RatingMode, User
from accounts.selectors import rating_get_many
from games.matchmaking.models import Challenge, ChallengeStatus, PoolEntry, Seek, Table, TableSeat
from games.matchmaking.pools import pool_keys, pool_spec
from games.play.models import Seat, Status
from games.play.time_control import TimeControl

# A match this fresh, found when a lobby socket opens, is one the player was just paired
# into while their page was loading: the socket sends them to it.
FRESH_MATCH_SECONDS = 30
LEADERBOARD_SIZE = 100
LOBBY_SEEKS = 200  # the oldest first: a seek waiting longest is shown first
LOBBY_TABLES = 100  # the oldest first, as seeks
TABLE_RATING_MODE = RatingMode.TABLE
"""The rating shown beside the people at a table (the tables' own, `accounts.table_ratings`)."""


def match_page_url(*, match_id: int) -> str:
    """The page of a match, where its players play it."""
    return reverse("games:match", args=[match_id])


def _ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


def pools(*, now: datetime | None = None) -> list[dict[str, Any]]:
    """The quick-pairing pools (duels', then tables') with how many players wait in each."""
    now = now or timezone.now()
    counts = dict(
        PoolEntry.objects.filter(alive_until__gt=now)
        .values_list("pool_id")
        .annotate(n=Count("id"))
        .values_list("pool_id", "n")
    )
    return [{"key": key, "waiting": counts.get(key, 0)} for key in pool_keys()]


def lobby_seeks(*, now: datetime | None = None) -> list[dict[str, Any]]:
    """The open seeks, oldest first, with their creators' ratings."""
    now = now or timezone.now()
    seeks = list(
        Seek.objects.filter(alive_until__gt=now)
        .select_related("creator")
        .order_by("created_at", "pk")[:LOBBY_SEEKS]
    )
    summaries = rating_get_many(user_ids=list({seek.creator_id for seek in seeks}), now=now)
    return [
        {
            "id": seek.pk,
            "player": seek.creator.username,
            "player_url": reverse("profile", args=[seek.creator.username]),
            "player_id": seek.creator_id,
            "rating": summaries[seek.creator_id].rating,
            "provisional": summaries[seek.creator_id].provisional,
            "time_control": TimeControl.of(seek).key,
            "rated": seek.rated,
        }
        for seek in seeks
    ]


def challenge_get(*, token: str) -> Challenge | None:
    return Challenge.objects.select_related("challenger", "challenged").filter(token=token).first()


def challenge_is_open(*, challenge: Challenge, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return challenge.status == ChallengeStatus.PENDING and challenge.expires_at > now


def _challenge_row(challenge: Challenge) -> dict[str, Any]:
    return {
        "token": challenge.token,
        "from": challenge.challenger.username,
        "to": challenge.challenged.username if challenge.challenged else None,
        "time_control": TimeControl.of(challenge).key,
        "rated": challenge.rated,
        "url": reverse("matchmaking:challenge", args=[challenge.token]),
        "expires_ms": _ms(challenge.expires_at),
    }


def fresh_match_id(*, user: User, now: datetime | None = None) -> int | None:
    """The user's live match against another person if it began moments ago (see
    FRESH_MATCH_SECONDS); a game against the AI is never one matchmaking made."""
    now = now or timezone.now()
    return (
        Seat.objects.filter(
            user=user,
            match__status__in=[Status.TRUMPS, Status.PLAYING],
            match__created_at__gte=now - timedelta(seconds=FRESH_MATCH_SECONDS),
        )
        .exclude(match__seats__ai_level__isnull=False)
        .order_by("-match_id")
        .values_list("match_id", flat=True)
        .first()
    )


def live_match_id(*, user: User) -> int | None:
    return (
        Seat.objects.filter(user=user, match__status__in=[Status.TRUMPS, Status.PLAYING],
                            match__correspondence=False)
        .order_by("-match_id")
        .values_list("match_id", flat=True)
        .first()
    )


def user_lobby_state(*, user: User, now: datetime | None = None) -> dict[str, Any]:
    """What the lobby shows this user alone: where they wait, challenges to and from them."""
    now = now or timezone.now()
    entry = PoolEntry.objects.filter(user=user, alive_until__gt=now).first()
    table = table_of(user=user)
    days_tables = correspondence_tables_of(user=user)
    pending = Challenge.objects.filter(
        status=ChallengeStatus.PENDING, expires_at__gt=now
    ).select_related("challenger", "challenged")
    live = live_match_id(user=user)
    return {
        "searching": _searching(entry),
        "table": table_row(table=table, now=now) if table is not None else None,
        "can_start": table is not None and _can_start(table, user),
        "correspondence_tables": [
            {"table": row, "can_start": _can_start(days_table, user)}
            for days_table, row in zip(days_tables, _table_rows(days_tables, now), strict=True)
        ],
        "challenges_in": [_challenge_row(c) for c in pending.filter(challenged=user)
                          .order_by("-created_at")[:20]],
        "challenges_out": [c.token for c in pending.filter(challenger=user)],
        "live_match": (
            {"id": live, "url": match_page_url(match_id=live)} if live is not None else None
        ),
    }


def _searching(entry: PoolEntry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    fill_ai_at = None
    if pool_spec(entry.pool_id)[0] > 2:
        fill_ai_at = _ms(entry.joined_at + timedelta(
            seconds=settings.MATCHMAKING_TABLE_FILL_AI_SECONDS))
    return {"pool": entry.pool_id, "since_ms": _ms(entry.joined_at),
            "fill_ai_at_ms": fill_ai_at}


# --- tables ------------------------------------------------------------------------------------


def table_get(*, token: str) -> Table | None:
    return Table.objects.select_related("creator", "match").filter(token=token).first()


def table_of(*, user: User) -> Table | None:
    """The open live table the user sits at, if any (one at most)."""
    return Table.objects.select_related("creator").filter(
        seats__user=user, correspondence=False, match__isnull=True).first()


def correspondence_tables_of(*, user: User) -> list[Table]:
    """The open correspondence tables the user sits at (up to
    `MATCHMAKING_OPEN_CORRESPONDENCE_TABLES`), oldest first."""
    return list(Table.objects.select_related("creator").filter(
        seats__user=user, correspondence=True, match__isnull=True).order_by("created_at", "pk"))


def table_closes_at(table: Table) -> datetime | None:
    """When an open correspondence table closes if nobody fills it (a live one never does)."""
    if not table.correspondence or table.match_id is not None:
        return None
    return table.created_at + timedelta(days=settings.MATCHMAKING_CORRESPONDENCE_TABLE_DAYS)


def table_page_url(*, token: str) -> str:
    return reverse("matchmaking:table", args=[token])


def _can_start(table: Table, user: User) -> bool:
    return table.creator_id == user.pk and table.seats.count() == table.n_players


def _table_rows(tables: list[Table], now: datetime) -> list[dict[str, Any]]:
    seats: dict[int, dict[int, TableSeat]] = {table.pk: {} for table in tables}
    for seat in TableSeat.objects.filter(table__in=tables).select_related("user"):
        seats[seat.table_id][seat.index] = seat
    people = [seat.user_id for by_index in seats.values() for seat in by_index.values()
              if seat.user_id is not None]
    summaries = rating_get_many(user_ids=list(set(people)), mode=TABLE_RATING_MODE, now=now)
    rows = []
    for table in tables:
        closes_at = table_closes_at(table)
        row_seats = []
        for index in range(table.n_players):
            seat = seats[table.pk].get(index)
            summary = summaries.get(seat.user_id) if seat and seat.user_id else None
            row_seats.append({
                "index": index,
                "kind": "empty" if seat is None else "ai" if seat.user_id is None else "person",
                "player": seat.user.username if seat and seat.user else None,
                "player_id": seat.user_id if seat else None,
                "rating": summary.rating if summary else None,
                "provisional": summary.provisional if summary else False,
                "ai_level": seat.ai_level if seat else None,
            })
        rows.append({
            "token": table.token,
            "url": table_page_url(token=table.token),
            "creator": table.creator.username,
            "creator_id": table.creator_id,
            "players": table.n_players,
            "time_control": TimeControl.of(table).key,
            "correspondence": table.correspondence,
            "rated": table.rated,
            "public": table.public,
            # Whole days, counted up: "closes in 1 day" on its last day.
            "closes_in_days": (None if closes_at is None
                               else max(1, math.ceil((closes_at - now) / timedelta(days=1)))),
            "seats": row_seats,
        })
    return rows


def table_row(*, table: Table, now: datetime | None = None) -> dict[str, Any]:
    """A table as the lobby shows it: its settings and who sits where (empty seats too)."""
    return _table_rows([table], now or timezone.now())[0]


def lobby_tables(*, now: datetime | None = None) -> list[dict[str, Any]]:
    """The open public tables, oldest first, with their seats."""
    now = now or timezone.now()
    tables = list(Table.objects.filter(public=True, match__isnull=True)
                  .select_related("creator").order_by("created_at", "pk")[:LOBBY_TABLES])
    return _table_rows(tables, now)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int | None  # None for a provisional rating: it is listed, not ranked
    username: str
    rating: int
    deviation: int
    games: int
    provisional: bool
    bot: bool = False  # a bot account, marked BOT


@dataclass(frozen=True, slots=True)
class Leaderboard:
    established: list[LeaderboardRow]
    provisional: list[LeaderboardRow]


def leaderboard(*, mode: str = RatingMode.DUEL, now: datetime | None = None,
                limit: int = LEADERBOARD_SIZE) -> Leaderboard:
    """The best players of a rating mode who have played a rated game, best first: the
    established (non-provisional) ratings ranked, then up to `limit` provisional ones, which
    Glicko-2 does not yet trust, listed below them unranked.

    The deviation grows while a player is idle, so a player who stopped playing moves down
    among the provisional ones once theirs passes the threshold again."""
    now = now or timezone.now()
    rows = (
        PlayerRating.objects.filter(mode=mode, games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-rating", "user_id")
    )
    established: list[LeaderboardRow] = []
    provisional: list[LeaderboardRow] = []
    for row in rows.iterator(chunk_size=200):
        if mode == RatingMode.TABLE:
            # The table rating's sigma does not grow with idle time (accounts.table_ratings):
            # its provisional threshold is the duel's, in the same points.
            deviation = row.deviation
        else:
            standing = ratings.Standing(row.rating, row.deviation, row.volatility,
                                        row.last_rated_at)
            deviation = ratings.current_deviation(standing, now=now)
        if ratings.is_provisional(deviation):
            if len(provisional) < limit:
                provisional.append(LeaderboardRow(None, row.user.username, round(row.rating),
                                                  round(deviation), row.games, True,
                                                  row.user.is_bot))
        elif len(established) < limit:
            established.append(LeaderboardRow(len(established) + 1, row.user.username,
                                              round(row.rating), round(deviation), row.games,
                                              False, row.user.is_bot))
        if len(established) >= limit and len(provisional) >= limit:
            break
    return Leaderboard(established=established, provisional=provisional)
