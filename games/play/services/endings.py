"""The other ways a game ends: resignation, abort, a draw by agreement, a claimed victory."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import checks, errors, events
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
    seats_out,
)
from games.play.services.finishing import draw_agree_if_complete, match_finish, match_lose
from games.play.services.takeover import person_check
from games.rules import (
    Outcome,
    Termination,
)


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


def _draw_actor(match: Match, seats: list[Seat], seat: int, *, by_ai: bool,
                expected_ply: int | None) -> list[int]:
    """Check that `seat` may answer a draw now (the AI's task for an AI seat, else its
    person); returns the seats that have gone out."""
    row = seat_check(seats, seat)
    if by_ai and not row.is_ai:
        raise PlayError(errors.NOT_ALLOWED, f"seat {seat} is not played by the AI")
    if not by_ai:
        person_check(row)
    check_not_over(match)
    if match.status != Status.PLAYING:
        raise PlayError(errors.WRONG_PHASE, "the game has not started")
    if not checks.draws_allowed(match, seats):
        raise PlayError(errors.NOT_ALLOWED, "a duel is drawn by agreement only between people")
    if expected_ply is not None and expected_ply != match.ply:
        raise PlayError(errors.STALE_PLY, f"the game is at ply {match.ply}, not {expected_ply}")
    out = seats_out(match)
    if seat in out:
        raise PlayError(errors.NOT_ALLOWED, "you have gone out already")
    return out


def match_draw_offer(*, match_id: int, seat: int, now: datetime | None = None) -> Change:
    """Offer a draw. Where an offer stands already, offering is accepting it; the draw is
    agreed once every seat still holding cards has."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        out = _draw_actor(match, seats, seat, by_ai=False, expected_ply=None)
        if match.draw_offer_seat is None:
            match.draw_offer_seat, match.draw_accepted = seat, ""
        elif seat not in checks.draw_agreed(match.draw_offer_seat, match.draw_accepted):
            _accept(match, seat)
        draw_agree_if_complete(match, seats, out, now)
        return change_commit(match, seats, now=now, turn_changed=False)


def _accept(match: Match, seat: int) -> None:
    accepted = {int(digit) for digit in match.draw_accepted} | {seat}
    match.draw_accepted = "".join(str(s) for s in sorted(accepted))


def match_draw_accept(*, match_id: int, seat: int, now: datetime | None = None,
                      by_ai: bool = False, expected_ply: int | None = None) -> Change:
    """Accept the standing draw offer; the game is drawn once every seat still holding cards
    has agreed. `by_ai`: the AI's task answers for an AI seat, judging the position at
    `expected_ply`."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        out = _draw_actor(match, seats, seat, by_ai=by_ai, expected_ply=expected_ply)
        if match.draw_offer_seat is None:
            raise PlayError(errors.NO_DRAW_OFFER, "there is no draw offer")
        if seat in checks.draw_agreed(match.draw_offer_seat, match.draw_accepted):
            raise PlayError(errors.NO_DRAW_OFFER,
                            "you agree already: the offer waits for the others")
        _accept(match, seat)
        draw_agree_if_complete(match, seats, out, now)
        return change_commit(match, seats, now=now, turn_changed=False)


def match_draw_decline(*, match_id: int, seat: int, now: datetime | None = None,
                       by_ai: bool = False, expected_ply: int | None = None) -> Change:
    """Decline the standing draw offer (or take back one's own, or one's acceptance): any
    seat still holding cards that says no ends the offer."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        _draw_actor(match, seats, seat, by_ai=by_ai, expected_ply=expected_ply)
        if match.draw_offer_seat is None:
            raise PlayError(errors.NO_DRAW_OFFER, "there is no draw offer")
        if match.draw_offer_seat != seat:  # declined, not taken back: the offerer is told
            events.draw_declined(match_id=match.pk, version=match.version,
                                 offerer=match.draw_offer_seat, decliner=seat)
        match.draw_offer_seat, match.draw_accepted = None, ""
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
