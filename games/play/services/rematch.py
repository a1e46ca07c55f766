"""Rematches: a new match of the series, the loser of the last game dealing.

A rematch seats everyone who played the game, so it needs the agreement of every person of
it (a person whose seat the AI took over included: the new game would seat them); the AI
always agrees. An offer stands with the seats that accepted it (`Match.rematch_accepted`);
the acceptance that leaves nobody awaited makes the new match, in its transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import checks, errors, events
from games.play.errors import PlayError
from games.play.models import Match, Seat
from games.play.services.core import Change, Player, change_commit, match_lock, seat_check
from games.play.services.play import match_create
from games.rules import next_dealer


def rematch_people(seats: list[Seat]) -> list[int]:
    """The seats whose person must agree to a rematch: every seat but the AI's own."""
    return [s.index for s in seats if not (s.is_ai and not s.taken_over)]


def match_rematch(*, match_id: int, seat: int, now: datetime | None = None) -> Change | None:
    """Offer (or accept) a rematch of a finished match. When every person of it has agreed
    (the AI always does) the new match is created (`Change.rematch`), seating everyone as
    they sat. None when the rematch exists already or this seat had agreed (nothing
    changed)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        seat_check(seats, seat)
        if not match.is_over:
            raise PlayError(errors.GAME_NOT_OVER, "the game is still on")
        if Match.objects.filter(previous=match).exists():
            return None
        people = rematch_people(seats)
        if seat not in people:
            raise PlayError(errors.NOT_ALLOWED, "the AI agrees to every rematch")
        if any(seats[index].user is None and not seats[index].guest_id for index in people):
            raise PlayError(errors.NOT_ALLOWED, "a player of this match no longer exists")
        offer, accepted = match.rematch_offer_seat, match.rematch_accepted
        if seat in checks.rematch_agreed(offer, accepted):
            return None
        if offer is None:
            match.rematch_offer_seat, match.rematch_accepted = seat, ""
        else:
            match.rematch_accepted = "".join(sorted(accepted + str(seat)))
        if checks.rematch_awaited(match.rematch_offer_seat, match.rematch_accepted,
                                  people=people):
            if offer is None:
                events.rematch_offered(match_id=match.pk, seat=seat)
            return change_commit(match, seats, now=now, turn_changed=False)
        new = match_create(
            players=[Player(ai_level=s.ai_level) if s.index not in people
                     else Player(user=s.user, guest_id=s.guest_id) for s in seats],
            variant=match.variant,
            rated=match.rated,
            time_control=match.time_control,
            public=match.public,
            dealer=next_dealer(match.dealer, loser=match.loser_seat, n_players=match.n_players),
            previous=match,
            now=now,
        )
        match.rematch_offer_seat, match.rematch_accepted = None, ""
        change = change_commit(match, seats, now=now, turn_changed=False)
    return Change(match=change.match, snapshot=change.snapshot, rematch=new)
