"""What the API reads: players, the games under way, open challenges, as plain JSON values
(the shapes `docs/api.md` describes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from accounts.models import RatingMode, User
from accounts.selectors import rating_get_many
from games.matchmaking.models import Challenge, ChallengeStatus
from games.play import selectors as play_selectors
from games.play.models import Match, Seat, Status
from games.play.time_control import TimeControl


def _iso(at: Any) -> str | None:
    return None if at is None else at.isoformat()


def online_key(user_id: int) -> str:
    """The cache's mark of an account whose event stream is open (`event_stream`)."""
    return f"api:online:{user_id}"


@dataclass(frozen=True, slots=True)
class OnlineBot:
    name: str
    rating: int
    provisional: bool
    games: int


def bots_online(*, limit: int = 200) -> list[OnlineBot]:
    """The bot accounts with an event stream open, the best rated (duel) first."""
    ids = list(User.objects.filter(is_bot=True, is_active=True)
               .order_by("-last_login", "pk").values_list("pk", flat=True)[:2000])
    marks = cache.get_many([online_key(user_id) for user_id in ids])
    online = [user_id for user_id in ids if online_key(user_id) in marks]
    names = dict(User.objects.filter(pk__in=online).values_list("pk", "username"))
    ratings = rating_get_many(user_ids=online)
    bots = [OnlineBot(name=names[user_id], rating=ratings[user_id].rating,
                      provisional=ratings[user_id].provisional, games=ratings[user_id].games)
            for user_id in online if user_id in names]
    bots.sort(key=lambda bot: (-bot.rating, bot.name))
    return bots[:limit]


def player_view(user: User | None, rating: int | None = None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"name": user.username, "title": "BOT" if user.is_bot else None, "rating": rating}


def challenge_view(challenge: Challenge) -> dict[str, Any]:
    users = [challenge.challenger] + ([challenge.challenged] if challenge.challenged else [])
    ratings = rating_get_many(user_ids=[u.pk for u in users])
    return {
        "id": challenge.token,
        "status": challenge.status,
        "challenger": player_view(challenge.challenger,
                                  ratings[challenge.challenger_id].rating),
        "dest_user": player_view(challenge.challenged,
                                 ratings[challenge.challenged.pk].rating
                                 if challenge.challenged else None),
        "rated": challenge.rated,
        "time_control": TimeControl.of(challenge).key,
        "expires_at": _iso(challenge.expires_at),
        "game_id": challenge.match_id,
    }


def challenges_open(*, user_id: int) -> list[Challenge]:
    """The pending challenges to or from the user (not open links), not expired, oldest
    first."""
    return list(
        Challenge.objects.filter(status=ChallengeStatus.PENDING, expires_at__gt=timezone.now())
        .filter(Q(challenged_id=user_id) | Q(challenger_id=user_id, challenged__isnull=False))
        .select_related("challenger", "challenged").order_by("created_at")
    )


def challenge_get(*, token: str) -> Challenge | None:
    return (Challenge.objects.select_related("challenger", "challenged")
            .filter(token=token).first())


def games_under_way(*, user_id: int) -> list[int]:
    """The ids of the matches the user plays that are not over, oldest first."""
    return list(
        Seat.objects.filter(user_id=user_id, match__status__in=[Status.TRUMPS, Status.PLAYING])
        .order_by("match_id").values_list("match_id", flat=True)
    )


def game_summary(*, match_id: int, user_id: int | None = None) -> dict[str, Any] | None:
    """A match in a line: its players, time control, status and result; `seat` is the
    user's seat (None: not theirs)."""
    match = play_selectors.match_get(match_id=match_id)
    if match is None:
        return None
    seats = play_selectors.match_seats(match=match)
    return summary_of(match, seats, user_id=user_id)


def summary_of(match: Match, seats: list[Seat], *, user_id: int | None = None,
               ratings: dict[int, Any] | None = None) -> dict[str, Any]:
    people = [seat.user_id for seat in seats if seat.user_id is not None and not seat.is_ai]
    if ratings is None:
        mode = match.rating_mode if match.rating_mode != RatingMode.TABLE else RatingMode.DUEL
        ratings = rating_get_many(user_ids=people, mode=mode)
    players = []
    mine = None
    for seat in seats:
        if user_id is not None and seat.user_id == user_id:
            mine = seat.index
        summary = ratings.get(seat.user_id) if seat.user_id is not None else None
        players.append({
            "seat": seat.index,
            "name": seat.display_name,
            "title": ("AI" if seat.is_ai and not seat.taken_over
                      else "BOT" if seat.user is not None and seat.user.is_bot else None),
            "ai_level": seat.ai_level,
            "rating": summary.rating if summary is not None and not seat.is_ai else None,
            "rating_before": seat.rating_before,
            "rating_after": seat.rating_after,
            "result": seat.result or None,
            "place": seat.place,
        })
    return {
        "id": match.pk,
        "seat": mine,
        "players": players,
        "n_players": match.n_players,
        "variant": match.variant,
        "rated": match.rated,
        "time_control": match.time_control.key,
        "correspondence": match.correspondence,
        "status": match.status,
        "result": match.result or None,
        "loser": match.loser_seat,
        "termination": match.termination or None,
        "plies": match.ply,
        "created_at": _iso(match.created_at),
        "started_at": _iso(match.started_at),
        "finished_at": _iso(match.finished_at),
    }
