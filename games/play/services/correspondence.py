"""Vacations: a player stops every correspondence clock of theirs for a few days.

A vacation is a period from now; `GAMES_VACATION_DAYS_PER_YEAR` days of them fit in any 365
days. While it lasts, each turn of the player's in a timed correspondence game gets the time
still left of the vacation on top of the time per move: the games where they are to act when
it starts, under each match's lock here, and every turn that begins during it
(`services.core`, when the turn changes). Ending it early takes the unused part back from the
turns that have it. The deadlines move with the clocks (`Match.due_at`), so the deadline watch
needs to know nothing of vacations.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.play import errors
from games.play.errors import PlayError
from games.play.models import Seat, Status, Vacation
from games.play.services.core import change_commit, match_lock, next_due_at
from games.play.your_turn import vacation_current, vacation_days_left


def vacation_start(*, user: User, days: int, now: datetime | None = None) -> Vacation:
    """Stop the user's correspondence clocks for `days` days from now."""
    now = now or timezone.now()
    with transaction.atomic():
        # The user's row serializes two tabs (or two requests) starting a vacation at once.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if vacation_current(user_id=user.pk, now=now) is not None:
            raise PlayError(errors.NOT_ALLOWED, _("You are on vacation already."))
        left = vacation_days_left(user_id=user.pk, now=now)
        if not 1 <= days <= left:
            raise PlayError(errors.NOT_ALLOWED, ngettext(
                "You have %(count)d day of vacation left this year.",
                "You have %(count)d days of vacation left this year.", left,
            ) % {"count": left})
        vacation = Vacation.objects.create(user=user, starts_at=now,
                                           ends_at=now + timedelta(days=days))
        _clocks_shift(user, now, vacation.ends_at - now)
    return vacation


def vacation_end(*, user: User, now: datetime | None = None) -> Vacation | None:
    """End the user's vacation now, giving back its unused days; None if they are not on
    vacation."""
    now = now or timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        vacation = vacation_current(user_id=user.pk, now=now)
        if vacation is None:
            return None
        _clocks_shift(user, now, -(vacation.ends_at - now))
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
    return vacation


def _clocks_shift(user: User, now: datetime, by: timedelta) -> None:
    """Move the clock (and so the deadline) of every timed correspondence game in which the
    user is to act by `by`, each under its match's lock; every board of them is told."""
    match_ids = list(
        Seat.objects.filter(
            user=user, match__correspondence=True, match__clock_initial__isnull=False,
            match__status__in=[Status.TRUMPS, Status.PLAYING],
        ).values_list("match_id", flat=True).order_by("match_id")
    )
    shift_ms = int(by.total_seconds() * 1000)
    for match_id in match_ids:
        match, seats = match_lock(match_id)
        if match.is_over or match.to_move is None:
            continue
        seat = seats[match.to_move]
        if seat.user_id != user.pk or seat.clock_ms is None:
            continue
        seat.clock_ms = max(0, seat.clock_ms + shift_ms)
        seat.save(update_fields=["clock_ms"])
        match.due_at = next_due_at(match, seats, now=now)
        change_commit(match, seats, now=now, turn_changed=False)

