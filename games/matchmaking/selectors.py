"""What the lobby, challenge and leaderboard pages and the lobby socket read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from accounts import ratings
from accounts.models import PlayerRating, RatingMode, User
from accounts.selectors import rating_get_many
from games.matchmaking.models import Challenge, ChallengeStatus, PoolEntry, Seek
from games.play.models import Seat, Status
from games.play.time_control import LIVE, TimeControl

# A match this fresh, found when a lobby socket opens, is one the player was just paired
# into while their page was loading: the socket sends them to it.
FRESH_MATCH_SECONDS = 30
LEADERBOARD_SIZE = 100
LOBBY_SEEKS = 200  # the oldest first: a seek waiting longest is shown first


def match_page_url(*, match_id: int) -> str:
    """The page of a match, where its players play it."""
    return reverse("games:match", args=[match_id])


def _ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


def pools(*, now: datetime | None = None) -> list[dict[str, Any]]:
    """The quick-pairing pools with how many players wait in each."""
    now = now or timezone.now()
    counts = dict(
        PoolEntry.objects.filter(alive_until__gt=now)
        .values_list("pool_id")
        .annotate(n=Count("id"))
        .values_list("pool_id", "n")
    )
    return [{"key": control.key, "waiting": counts.get(control.key, 0)} for control in LIVE]


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
        Seat.objects.filter(user=user, match__status__in=[Status.TRUMPS, Status.PLAYING])
        .order_by("-match_id")
        .values_list("match_id", flat=True)
        .first()
    )


def user_lobby_state(*, user: User, now: datetime | None = None) -> dict[str, Any]:
    """What the lobby shows this user alone: where they wait, challenges to and from them."""
    now = now or timezone.now()
    entry = PoolEntry.objects.filter(user=user, alive_until__gt=now).first()
    pending = Challenge.objects.filter(
        status=ChallengeStatus.PENDING, expires_at__gt=now
    ).select_related("challenger", "challenged")
    live = live_match_id(user=user)
    return {
        "searching": (
            {"pool": entry.pool_id, "since_ms": _ms(entry.joined_at)} if entry else None
        ),
        "challenges_in": [_challenge_row(c) for c in pending.filter(challenged=user)
                          .order_by("-created_at")[:20]],
        "challenges_out": [c.token for c in pending.filter(challenger=user)],
        "live_match": (
            {"id": live, "url": match_page_url(match_id=live)} if live is not None else None
        ),
    }


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    username: str
    rating: int
    deviation: int
    games: int


def leaderboard(*, mode: str = RatingMode.DUEL, now: datetime | None = None,
                limit: int = LEADERBOARD_SIZE) -> list[LeaderboardRow]:
    """The best established (non-provisional) players of a rating mode, best first.

    The deviation grows while a player is idle, so a player who stopped playing leaves the
    board once theirs passes the provisional threshold again."""
    now = now or timezone.now()
    rows = (
        PlayerRating.objects.filter(
            mode=mode, deviation__lt=ratings.PROVISIONAL_DEVIATION, user__is_active=True
        )
        .select_related("user")
        .order_by("-rating", "user_id")
    )
    board: list[LeaderboardRow] = []
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
            continue
        board.append(LeaderboardRow(len(board) + 1, row.user.username, round(row.rating),
                                    round(deviation), row.games))
        if len(board) >= limit:
            break
    return board

