"""What a player's profile shows of their games (`games.profiles.views`): the record and
streaks, the head-to-head score, the latest games, the rating's history, the games being
played now. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q
from django.urls import reverse

from accounts.models import RatingMode, User
from accounts.selectors import RATING_HISTORY_POINTS, RatingPoint
from games.play.models import Match, Seat, SeatResult, Status

RECENT_GAMES = 10


def _finished_seats(user: User, mode: str | None = None):  # type: ignore[no-untyped-def]
    """The user's finished games; of one rating's kind with `mode` (duels, or tables of 3-4:
    `RatingMode.DUEL` or `TABLE`, rated or not)."""
    seats = Seat.objects.filter(
        user=user,
        match__status=Status.FINISHED,
        result__in=[SeatResult.WIN, SeatResult.LOSS, SeatResult.DRAW],
    )
    return _of_mode(seats, mode)


def _of_mode(seats, mode: str | None):  # type: ignore[no-untyped-def]
    if mode == RatingMode.DUEL:
        return seats.filter(match__n_players=2)
    if mode == RatingMode.TABLE:
        return seats.filter(match__n_players__gte=3)
    return seats


@dataclass(frozen=True, slots=True)
class Record:
    played: int
    won: int
    drawn: int
    lost: int
    current_win_streak: int
    best_win_streak: int


def profile_record(*, user: User, mode: str | None = None) -> Record:
    """Games played, won, drawn and lost (finished games only), and the win streaks; only
    duels or only tables with `mode`. At a table a win is any place but the last."""
    counts = _finished_seats(user, mode).aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(result=SeatResult.WIN)),
        drawn=Count("pk", filter=Q(result=SeatResult.DRAW)),
        lost=Count("pk", filter=Q(result=SeatResult.LOSS)),
    )
    results = _finished_seats(user, mode).order_by("match__finished_at", "match_id").values_list(
        "result", flat=True
    )
    best = run = 0
    for result in results.iterator(chunk_size=2000):
        run = run + 1 if result == SeatResult.WIN else 0
        best = max(best, run)
    return Record(
        played=counts["played"],
        won=counts["won"],
        drawn=counts["drawn"],
        lost=counts["lost"],
        current_win_streak=run,
        best_win_streak=best,
    )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    played: int
    won: int
    drawn: int
    lost: int


def head_to_head(*, user: User, opponent: User) -> HeadToHead:
    """The finished duels of `user` against `opponent`, as `user`'s score."""
    counts = _finished_seats(user, RatingMode.DUEL).filter(
        match__seats__user=opponent).aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(result=SeatResult.WIN)),
        drawn=Count("pk", filter=Q(result=SeatResult.DRAW)),
        lost=Count("pk", filter=Q(result=SeatResult.LOSS)),
    )
    return HeadToHead(**counts)


def match_url(match_id: int) -> str:
    """The replay of a match (it follows a game still being played live)."""
    return reverse("replays:replay", args=[match_id])


def player_history_url(*, user: User) -> str:
    """The page listing all of a player's games."""
    return reverse("replays:player_history", args=[user.username])


@dataclass(frozen=True, slots=True)
class Opponent:
    name: str
    url: str | None  # the profile of a person; None for the AI or a deleted account


@dataclass(frozen=True, slots=True)
class RecentGame:
    match_id: int
    url: str | None
    finished_at: datetime | None
    opponents: list[Opponent]
    result: str  # a SeatResult value
    rated: bool
    rating_after: int | None
    rating_delta: int | None
    time_control: str
    variant: str


def profile_recent_games(*, user: User, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """The user's latest finished games, newest first, with the opponents' names."""
    seats = list(
        _finished_seats(user)
        .select_related("match")
        .order_by("-match__finished_at", "-match_id")[:limit]
    )
    others: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(match_id__in=[s.match_id for s in seats])
        .exclude(user=user)
        .select_related("user")
        .order_by("index")
    ):
        others.setdefault(seat.match_id, []).append(seat)
    games = []
    for seat in seats:
        match: Match = seat.match
        games.append(
            RecentGame(
                match_id=match.pk,
                url=match_url(match.pk),
                finished_at=match.finished_at,
                opponents=[
                    Opponent(other.display_name,
                             reverse("profile", args=[other.user.username])
                             if other.user_id is not None and other.ai_level is None else None)
                    for other in others.get(match.pk, [])
                ],
                result=seat.result,
                rated=match.rated,
                rating_after=round(seat.rating_after) if seat.rating_after is not None else None,
                rating_delta=seat.rating_delta,
                time_control=match.time_control.label,
                variant=match.get_variant_display(),
            )
        )
    return games


def profile_rating_history(
    *, user: User, mode: str = RatingMode.DUEL, limit: int = RATING_HISTORY_POINTS
) -> list[RatingPoint]:
    """The rating of `mode` after each rated game of its kind, oldest first (the latest
    `limit` games)."""
    rows = list(
        _of_mode(Seat.objects.filter(
            user=user,
            match__rated=True,
            match__finished_at__isnull=False,
            rating_after__isnull=False,
        ), mode)
        .order_by("-match__finished_at", "-match_id")
        .values_list("match__finished_at", "rating_after")[:limit]
    )
    rows.reverse()
    return [RatingPoint(at=at, rating=rating) for at, rating in rows]


@dataclass(frozen=True, slots=True)
class LiveGame:
    match_id: int
    url: str
    n_players: int


def profile_live_games(*, user: User) -> list[LiveGame]:
    """The public games the user is playing now, to watch (the match page shows a
    spectator only what every player knows)."""
    matches = (
        Match.objects.filter(seats__user=user, public=True,
                             status__in=[Status.TRUMPS, Status.PLAYING])
        .order_by("-created_at").values_list("pk", "n_players")[:5]
    )
    return [LiveGame(match_id=pk, url=reverse("games:match", args=[pk]), n_players=n)
            for pk, n in matches]
