"""The other ways a game ends: resignation, abort, a draw by agreement, a claimed victory."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import checks, errors
from games.play.errors import PlayError
from games.play.models import (
    Match,
    Move,
    Seat,
    Status,
    TerminationReason,
)
from games.play.services.core import (
    Change,
    change_commit,
    check_not_over,
    match_lock,
    seat_check,
)
from games.play.services.finishing import match_finish, match_lose, seats_out
from games.play.services.takeover import person_check
from games.rules import (
    Outcome,
    Termination,
)
from notifications.services import notification_draw_declined


def _movers(match: Match) -> set[int]:
    """The seats that have made a move."""
    return set(Move.objects.filter(match=match).values_list("seat", flat=True).distinct())


def match_resign(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """The seat resigns and loses (at any moment of play, on anyone's turn)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        person_check(seat_check(seats, seat))
        check_not_over(match)
        if match.status != Status.PLAYING:
            raise PlayError(errors.WRONG_PHASE, "the game has not started: abort it instead")
        if seat in seats_out(match):
            raise PlayError(errors.NOT_ALLOWED, "you have gone out already")
        if (flagged := checks.mover_out_of_time(match, seats, now)) is not None:
            match_lose(match, seats, flagged, TerminationReason.TIMEOUT, now)
        else:
            match_lose(match, seats, seat, TerminationReason.RESIGNATION, now)
        return change_commit(match, seats, now=now, turn_changed=False)


def match_abort(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """End the match without a result (no rating change): allowed until each has moved."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        person_check(seat_check(seats, seat))
        check_not_over(match)
        if not checks.can_abort(match, movers=_movers(match)):
            raise PlayError(errors.CANNOT_ABORT, "every player has moved: resign instead")
        match_finish(match, seats, Outcome.aborted(match.n_players), TerminationReason.ABORTED,
                     now)
        return change_commit(match, seats, now=now, turn_changed=False)


def _check_draw_allowed(match: Match, seats: list[Seat]) -> None:
    check_not_over(match)
    if match.status != Status.PLAYING:
        raise PlayError(errors.WRONG_PHASE, "the game has not started")
    if not checks.draws_allowed(match, seats):
        raise PlayError(errors.NOT_ALLOWED, "draws are agreed only between two players")


def match_draw_offer(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """Offer a draw; if the other player has already offered one, the draw is agreed."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        person_check(seat_check(seats, seat))
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is not None and match.draw_offer_seat != seat:
            _agree_draw(match, seats, now)
        else:
            match.draw_offer_seat = seat
        return change_commit(match, seats, now=now, turn_changed=False)


def _agree_draw(match: Match, seats: list[Seat], now: datetime) -> None:
    if (loser := checks.mover_out_of_time(match, seats, now)) is not None:
        match_lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        return
    outcome = Outcome.drawn(Termination.AGREEMENT, match.n_players, seats_out(match))
    match_finish(match, seats, outcome, TerminationReason.AGREEMENT, now)


def match_draw_accept(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """Accept the other player's standing draw offer: the game is drawn."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        person_check(seat_check(seats, seat))
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is None or match.draw_offer_seat == seat:
            raise PlayError(errors.NO_DRAW_OFFER, "the other player has not offered a draw")
        _agree_draw(match, seats, now)
        return change_commit(match, seats, now=now, turn_changed=False)


def match_draw_decline(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """Decline the other player's draw offer (or take back one's own)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        person_check(seat_check(seats, seat))
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is None:
            raise PlayError(errors.NO_DRAW_OFFER, "there is no draw offer")
        if match.draw_offer_seat != seat:  # declined, not taken back: the offerer is told
            notification_draw_declined(match=match, seats=seats, offerer=match.draw_offer_seat,
                                       decliner=seat, now=now)
        match.draw_offer_seat = None
        return change_commit(match, seats, now=now, turn_changed=False)


def match_claim_victory(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """Win because the mover has been gone (no open socket) for a while on their turn."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        person_check(seat_check(seats, seat))
        check_not_over(match)
        at = checks.claim_available_at(match, seats, now, movers=_movers(match))
        if at is None or match.to_move == seat:
            raise PlayError(errors.CANNOT_CLAIM, "your opponent is not away on their turn")
        if now < at:
            seconds = (at - now).total_seconds()
            raise PlayError(errors.CANNOT_CLAIM, f"you may claim in {seconds:.0f} s")
        assert match.to_move is not None
        loser = match.to_move
        if checks.mover_out_of_time(match, seats, now) is not None:
            match_lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        else:
            outcome = Outcome.lost_by(
                Termination.RESIGNATION, match.n_players, seats_out(match), loser
            )
            match_finish(match, seats, outcome, TerminationReason.ABANDONMENT, now)
        return change_commit(match, seats, now=now, turn_changed=False)
