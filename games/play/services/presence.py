"""Who is at the table: game sockets counted per seat, with a lease that open sockets renew
(whether a seat counts as present is `checks.is_present`), and how many of them are pages in
view and focused (`checks.is_watching`: the player sees their turns come)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.play import events
from games.play.checks import is_present
from games.play.models import Match, Seat
from games.play.services.core import (
    Change,
    change_commit,
    match_lock,
    next_due_at,
    seat_check,
)


def seat_presence_change(
    *, match_id: int, seat: int, connected: bool, now: datetime | None = None
) -> Change | None:
    """A game socket of the seat's player opened or closed (counts sockets, not people).
    The change it made to the match, if the seat's presence changed (the others' claim
    countdown), else None: a socket opening sends that snapshot rather than read it again."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        row = seat_check(seats, seat)
        was_present = is_present(row, now)
        if connected:
            if row.connections > 0 and not was_present:
                row.connections = 0  # a count left behind by a server that died
                row.focused = 0
            row.connections += 1
            row.present_until = now + timedelta(seconds=settings.GAMES_PRESENCE_LEASE_SECONDS)
        else:
            row.connections = max(0, row.connections - 1)
            if row.connections == 0:
                row.disconnected_at = now
                row.focused = 0
        row.save(update_fields=["connections", "disconnected_at", "present_until", "focused"])
        if was_present != is_present(row, now) and not match.is_over:
            # The others' claim countdown starts or stops; at a table the moment the AI
            # would take the seat over moves with it.
            match.due_at = next_due_at(match, seats, now=now)
            return change_commit(match, seats, now=now, turn_changed=False)
    return None


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
            present_until=now + timedelta(seconds=settings.GAMES_PRESENCE_LEASE_SECONDS)
        )


def seat_focus_change(
    *, match_id: int, seat: int, focused: bool, now: datetime | None = None
) -> None:
    """A game socket of the seat's player says its page came into view and focus (or left
    it). While one is focused the player sees their turns come: they are not notified of
    them, and the turn notifications of the game they had not read are read now. Counts
    sockets, as presence does; nobody else is told (no change of the match)."""
    now = now or timezone.now()
    with transaction.atomic():
        # Under the match's lock, as every change of its seats (no key lock: nothing else of
        # the match changes, and rows that refer to it are still written beside it).
        if Match.objects.select_for_update(no_key=True).filter(pk=match_id).first() is None:
            return
        rows = Seat.objects.filter(match_id=match_id, index=seat)
        if not focused:
            rows.filter(focused__gt=0).update(focused=F("focused") - 1)
            return
        rows.update(focused=F("focused") + 1)
        user_id = rows.values_list("user_id", flat=True).first()
        if user_id is not None:
            events.match_seen(match_id=match_id, user_id=user_id)
