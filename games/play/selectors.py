"""Reads of matches: who sits where, and the view of a match that a seat (or a spectator)
may see (built in `games.play.snapshots`). The view is what the board draws; it includes the legal
moves of the seat to move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from games.play.models import Match, Seat, Status


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a signed-in user and/or a guest (by the id in their session)."""

    user_id: int | None = None
    guest_id: str = ""


def match_get(*, match_id: int) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


def match_seats(*, match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def seat_of(*, seats: list[Seat], viewer: Viewer) -> int | None:
    """The seat the viewer plays at in this match, or None (a spectator)."""
    for seat in seats:
        if seat.is_ai:
            continue
        if viewer.user_id is not None and seat.user_id == viewer.user_id:
            return seat.index
        if viewer.guest_id and seat.guest_id == viewer.guest_id:
            return seat.index
    return None


def live_matches(*, limit: int = 20) -> QuerySet[Match]:
    """Public matches being played now, newest first."""
    return Match.objects.filter(public=True, status=Status.PLAYING).order_by("-created_at")[
        :limit
    ]


def match_view(*, match_id: int, viewer_seat: int | None, now: datetime | None = None
               ) -> dict[str, Any] | None:
    """The full state of the match for one seat (None: a spectator), as the client gets it."""
    from games.play.snapshots import match_snapshot, snapshot_view

    snapshot = match_snapshot(match_id=match_id, now=now)
    if snapshot is None:
        return None
    return snapshot_view(snapshot=snapshot, viewer_seat=viewer_seat, now=now)
