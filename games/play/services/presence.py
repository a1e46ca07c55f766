"""Who is at the table: game sockets counted per seat with a lease, and when the others may
claim victory over a player who left during their own turn."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.play.models import (
    Match,
    Move,
    Seat,
    Status,
)
from games.play.services.base import (
    _lock,
    _seat,
    _touch,
    claim_after_seconds,
    presence_lease_seconds,
)


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
    match: Match, seats: Sequence[Seat], now: datetime | None = None, *,
    mover_has_moved: bool | None = None,
) -> datetime | None:
    """When the others may claim victory because the mover has left, or None if they can't:
    the mover is a person with no open game socket, gone a while during their own turn. One
    who has not moved yet is not claimed against: the game may be aborted instead.
    `mover_has_moved` is looked up when not given. `match` and `seats` may be any objects with
    the models' fields (a snapshot's facts)."""
    now = now or timezone.now()
    if match.status != Status.PLAYING or match.to_move is None:
        return None
    mover = seats[match.to_move]
    if is_present(mover, now):
        return None
    if mover_has_moved is None:
        mover_has_moved = Move.objects.filter(match=match, seat=mover.index).exists()
    if not mover_has_moved:
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


def seat_presence_renew(
    *, seats: Iterable[tuple[int, int]], now: datetime | None = None
) -> int:
    """Open sockets renew their seats' presence leases, given as (match id, seat index)
    pairs: one statement for all the sockets of a process (no match lock: it changes nothing
    else). Seats whose row a move is changing right now are skipped rather than waited for,
    so a renewal never stalls moves behind it; a lease lasts three renewals. Returns how many
    seats were renewed."""
    now = now or timezone.now()
    pairs = set(seats)
    if not pairs:
        return 0
    # Most matches have one socket per process, so group by seat index: at most four terms.
    by_index: dict[int, set[int]] = {}
    for match_id, index in pairs:
        by_index.setdefault(index, set()).add(match_id)
    which = Q()
    for index, match_ids in by_index.items():
        which |= Q(index=index, match_id__in=match_ids)
    with transaction.atomic():
        free = list(
            Seat.objects.filter(which, connections__gt=0)
            .select_for_update(skip_locked=True)
            .values_list("pk", flat=True)
        )
        return Seat.objects.filter(pk__in=free).update(
            present_until=now + timedelta(seconds=presence_lease_seconds())
        )
