"""Who is at the table: game sockets counted per seat with a lease, and when the others may
claim victory over a player who left during their own turn."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.models import (
    Match,
    Move,
    Seat,
    Status,
)
from games.services.base import _lock, _seat, _touch, claim_after_seconds, presence_lease_seconds


def is_present(seat: Seat, now: datetime) -> bool:
    """Whether the seat's player has a game socket open (the AI is always there)."""
    if seat.is_ai:
        return True
    if seat.connections <= 0:
        return False
    return seat.present_until is None or seat.present_until > now


def absent_since(seat: Seat, now: datetime) -> datetime | None:
    """Since when the seat's player has been away, or None if present or never seen."""
    if is_present(seat, now):
        return None
    if seat.connections > 0:
        return seat.present_until  # a lapsed lease: the server holding it died
    return seat.disconnected_at


def claim_available_at(
    match: Match, seats: list[Seat], now: datetime | None = None
) -> datetime | None:
    """When the others may claim victory because the mover has left, or None if they can't:
    the mover is a person with no open game socket, gone a while during their own turn. One
    who has not moved yet is not claimed against: the game may be aborted instead."""
    now = now or timezone.now()
    if match.status != Status.PLAYING or match.to_move is None:
        return None
    mover = seats[match.to_move]
    if is_present(mover, now):
        return None
    if not Move.objects.filter(match=match, seat=mover.index).exists():
        return None
    gone_since = absent_since(mover, now) or match.started_at or match.created_at
    start = max(gone_since, match.turn_started_at or gone_since)
    return start + timedelta(seconds=claim_after_seconds())


def seat_presence_change(
    *, match_id: int, seat: int, connected: bool, now: datetime | None = None
) -> None:
    """A game socket of the seat's player opened or closed (counts sockets, not people)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        row = _seat(seats, seat)
        was_present = is_present(row, now)
        if connected:
            if row.connections > 0 and not was_present:
                row.connections = 0  # a count left behind by a server that died
            row.connections += 1
            row.present_until = now + timedelta(seconds=presence_lease_seconds())
        else:
            row.connections = max(0, row.connections - 1)
            if row.connections == 0:
                row.disconnected_at = now
        row.save(update_fields=["connections", "disconnected_at", "present_until"])
        if was_present != is_present(row, now) and not match.is_over:
            _touch(match)  # the others' claim countdown starts or stops


def seat_presence_renew(*, match_id: int, seat: int, now: datetime | None = None) -> None:
    """An open socket renews its seat's presence lease (no lock: it changes nothing else)."""
    now = now or timezone.now()
    Seat.objects.filter(match_id=match_id, index=seat, connections__gt=0).update(
        present_until=now + timedelta(seconds=presence_lease_seconds())
    )
