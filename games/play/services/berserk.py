"""Berserk: a player of a timed duel gives up half their initial time and the increment
before their first move (the arenas offer it, `games.tournaments`; whether a match allows it
is theirs to say: this service only changes the clock)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import errors
from games.play.errors import PlayError
from games.play.models import Move
from games.play.services.core import Change, change_commit, check_not_over, match_lock, seat_check


def seat_berserk(*, match_id: int, seat: int, now: datetime | None = None) -> Change | None:
    """Halve the seat's time (half the initial time is taken off what it has left) and drop
    its increment. Refused once the seat has moved or in an untimed game; None when the seat
    is berserk already (nothing changed)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        mover = seat_check(seats, seat)
        check_not_over(match)
        if mover.berserk:
            return None
        if not match.timed or match.correspondence or mover.clock_ms is None:
            raise PlayError(errors.NOT_ALLOWED, "only a live timed game allows berserk")
        if Move.objects.filter(match=match, seat=seat).exists():
            raise PlayError(errors.NOT_ALLOWED, "berserk is only possible before your first move")
        mover.clock_ms -= (match.clock_initial or 0) * 1000 // 2
        mover.berserk = True
        mover.save(update_fields=["clock_ms", "berserk"])
        # The mover's flag may now come sooner: the next deadline is written again.
        return change_commit(match, seats, now=now)
