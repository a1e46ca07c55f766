"""What the watch page and the TV read: the public games in progress, the best players'
first. Spectators see them through the match page, which shows a spectator only what every
player sees in common (`games.rules.observation.visible_hands`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.urls import reverse

from accounts.selectors import rating_get_many
from games.play.models import Match, Seat, Status

# The newest live games looked at (the index of (status, created_at)); the page lists them by
# their best player's rating.
WATCH_CANDIDATES = 200
WATCH_SIZE = 50


@dataclass(frozen=True, slots=True)
class WatchPlayer:
    name: str
    url: str | None  # a person's profile; None for the AI or a guest
    rating: int | None
    provisional: bool
    bot: bool = False  # a bot account, marked BOT


@dataclass(frozen=True, slots=True)
class LiveGame:
    match_id: int
    url: str
    players: list[WatchPlayer]
    top_rating: int  # the best player's rating (0 when only the AI and guests play)
    time_control: str
    rated: bool
    plies: int
    started_at: datetime | None


def live_games(*, limit: int = WATCH_SIZE, exclude_user_id: int | None = None
               ) -> list[LiveGame]:
    """Public games in progress, the one with the best-rated player first (then the newest);
    without those `exclude_user_id` plays in, if given."""
    matches = (
        Match.objects.filter(status__in=[Status.TRUMPS, Status.PLAYING], public=True)
        .order_by("-created_at")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))
    )
    if exclude_user_id is not None:
        matches = matches.exclude(seats__user_id=exclude_user_id)
    found = list(matches[:WATCH_CANDIDATES])
    people = {seat.user_id for match in found for seat in match.seats.all()
              if seat.user_id is not None and seat.ai_level is None}
    summaries = rating_get_many(user_ids=sorted(people))
    games = []
    for match in found:
        players = []
        for seat in match.seats.all():
            summary = summaries.get(seat.user_id) if seat.ai_level is None else None
            players.append(WatchPlayer(
                name=seat.display_name,
                url=reverse("profile", args=[seat.user.username]) if summary else None,
                rating=summary.rating if summary else None,
                provisional=summary.provisional if summary else False,
                bot=seat.user_id is not None and seat.user.is_bot,
            ))
        games.append(LiveGame(
            match_id=match.pk,
            url=reverse("games:match", args=[match.pk]),
            players=players,
            top_rating=max((p.rating for p in players if p.rating is not None), default=0),
            time_control=match.time_control.label,
            rated=match.rated,
            plies=match.ply,
            started_at=match.started_at,
        ))
    games.sort(key=lambda game: (-game.top_rating, -game.match_id))
    return games[:limit]
