"""Rematches: a new match of the series, the loser of the last game dealing."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import errors
from games.play.errors import PlayError
from games.play.models import (
    Match,
)
from games.play.services.base import Player, _lock, _seat, _touch
from games.play.services.play import match_create


def next_dealer(match: Match) -> int:
    """The loser of the last game deals; after a draw or an abort the deal passes to the left."""
    if match.loser_seat is not None:
        return match.loser_seat
    return (match.dealer + 1) % match.n_players


def match_rematch(*, match_id: int, seat: int, now: datetime | None = None) -> Match | None:
    """Offer (or accept) a rematch of a finished match. When every other person has offered
    too (the AI always accepts), the new match is created and returned; else None."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        if not match.is_over:
            raise PlayError(errors.GAME_NOT_OVER, "the game is still on")
        existing = Match.objects.filter(previous=match).first()
        if existing is not None:
            return existing
        others = [s for s in seats if s.index != seat and not s.is_ai]
        if others and match.rematch_offer_seat in (None, seat):
            match.rematch_offer_seat = seat
            _touch(match)
            return None
        players = [
            Player(user=s.user, guest_id=s.guest_id, ai_level=s.ai_level) for s in seats
        ]
        if any(s.user is None and not s.guest_id and not s.is_ai for s in seats):
            raise PlayError(errors.NOT_ALLOWED, "a player of this match no longer exists")
        new = match_create(
            players=players,
            variant=match.variant,
            rated=match.rated,
            clock_initial=match.clock_initial,
            clock_increment=match.clock_increment,
            public=match.public,
            dealer=next_dealer(match),
            previous=match,
            now=now,
        )
        match.rematch_offer_seat = None
        _touch(match)
    return new
