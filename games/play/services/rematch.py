"""Rematches: a new match of the series, the loser of the last game dealing."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import errors
from games.play.errors import PlayError
from games.play.models import Match
from games.play.services.core import Change, Player, change_commit, match_lock, seat_check
from games.play.services.play import match_create
from games.rules import next_dealer
from notifications.services import notification_rematch_offer


def match_rematch(*, match_id: int, seat: int, now: datetime | None = None) -> Change | None:
    """Offer (or accept) a rematch of a finished match. When every other person has offered
    too (the AI always accepts), the new match is created (`Change.rematch`). None when the
    rematch exists already (nothing changed)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        seat_check(seats, seat)
        if not match.is_over:
            raise PlayError(errors.GAME_NOT_OVER, "the game is still on")
        existing = Match.objects.filter(previous=match).first()
        if existing is not None:
            return None
        others = [s for s in seats if s.index != seat and not s.is_ai]
        if others and match.rematch_offer_seat in (None, seat):
            match.rematch_offer_seat = seat
            notification_rematch_offer(match=match, seats=seats, seat=seat, now=now)
            return change_commit(match, seats, now=now, turn_changed=False)
        players = [
            Player(user=s.user, guest_id=s.guest_id, ai_level=s.ai_level) for s in seats
        ]
        if any(s.user is None and not s.guest_id and not s.is_ai for s in seats):
            raise PlayError(errors.NOT_ALLOWED, "a player of this match no longer exists")
        new = match_create(
            players=players,
            variant=match.variant,
            rated=match.rated,
            time_control=match.time_control,
            public=match.public,
            dealer=next_dealer(match.dealer, loser=match.loser_seat, n_players=match.n_players),
            previous=match,
            now=now,
        )
        match.rematch_offer_seat = None
        change = change_commit(match, seats, now=now, turn_changed=False)
    return Change(match=change.match, snapshot=change.snapshot, rematch=new)
