"""The other ways a game ends: resignation, abort, a draw by agreement, a claimed victory."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import errors
from games.play.errors import PlayError
from games.play.models import (
    Match,
    Move,
    Seat,
    Status,
    TerminationReason,
)
from games.play.services.base import _check_not_over, _lock, _seat, _touch
from games.play.services.clocks import flag_at
from games.play.services.finishing import _current_out, _finish, _lose
from games.play.services.presence import claim_available_at
from games.rules import (
    Outcome,
    Termination,
)


def match_resign(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """The seat resigns and loses (at any moment of play, on either player's turn)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        if match.status != Status.PLAYING:
            raise PlayError(errors.WRONG_PHASE, "the game has not started: abort it instead")
        if seat in _current_out(match):
            raise PlayError(errors.NOT_ALLOWED, "you have gone out already")
        if (remaining := _mover_time_out(match, seats, now)) is not None:
            _lose(match, seats, remaining, TerminationReason.TIMEOUT, now)
        else:
            _lose(match, seats, seat, TerminationReason.RESIGNATION, now)
        _touch(match)
    return match


def _mover_time_out(match: Match, seats: list[Seat], now: datetime) -> int | None:
    """The mover's seat if their time has already run out (the watch may not have looked yet)."""
    deadline = flag_at(match, seats)
    if deadline is not None and now >= deadline:
        return match.to_move
    return None


def can_abort(match: Match, *, movers: set[int] | None = None) -> bool:
    """A match may be aborted until every player has made a move. `movers` (the seats that
    have moved) is looked up when not given."""
    if match.is_over:
        return False
    if match.status == Status.TRUMPS:
        return True
    if movers is None:
        movers = set(Move.objects.filter(match=match).values_list("seat", flat=True).distinct())
    return len(movers) < match.n_players


def match_abort(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """End the match without a result (no rating change): allowed until each has moved."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        if not can_abort(match):
            raise PlayError(errors.CANNOT_ABORT, "every player has moved: resign instead")
        _finish(match, seats, Outcome.aborted(match.n_players), TerminationReason.ABORTED, now)
        _touch(match)
    return match


def _check_draw_allowed(match: Match, seats: list[Seat]) -> None:
    _check_not_over(match)
    if match.status != Status.PLAYING:
        raise PlayError(errors.WRONG_PHASE, "the game has not started")
    if match.n_players != 2 or any(s.is_ai for s in seats):
        raise PlayError(errors.NOT_ALLOWED, "draws are agreed only between two players")


def match_draw_offer(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """Offer a draw; if the other player has already offered one, the draw is agreed."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is not None and match.draw_offer_seat != seat:
            _agree_draw(match, seats, now)
        else:
            match.draw_offer_seat = seat
        _touch(match)
    return match


def _agree_draw(match: Match, seats: list[Seat], now: datetime) -> None:
    if (loser := _mover_time_out(match, seats, now)) is not None:
        _lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        return
    outcome = Outcome.drawn(Termination.REPETITION, match.n_players, _current_out(match))
    _finish(match, seats, outcome, TerminationReason.AGREEMENT, now)


def match_draw_accept(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """Accept the other player's standing draw offer: the game is drawn."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is None or match.draw_offer_seat == seat:
            raise PlayError(errors.NO_DRAW_OFFER, "the other player has not offered a draw")
        _agree_draw(match, seats, now)
        _touch(match)
    return match


def match_draw_decline(*, match_id: int, seat: int) -> Match:
    """Decline the other player's draw offer (or take back one's own)."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is None:
            raise PlayError(errors.NO_DRAW_OFFER, "there is no draw offer")
        match.draw_offer_seat = None
        _touch(match)
    return match


def match_claim_victory(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """Win because the mover has been gone (no open socket) for a while on their turn."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        at = claim_available_at(match, seats, now)
        if at is None or match.to_move == seat:
            raise PlayError(errors.CANNOT_CLAIM, "your opponent is not away on their turn")
        if now < at:
            seconds = (at - now).total_seconds()
            raise PlayError(errors.CANNOT_CLAIM, f"you may claim in {seconds:.0f} s")
        assert match.to_move is not None
        loser = match.to_move
        if _mover_time_out(match, seats, now) is not None:
            _lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        else:
            outcome = Outcome.lost_by(
                Termination.RESIGNATION, match.n_players, _current_out(match), loser
            )
            _finish(match, seats, outcome, TerminationReason.ABANDONMENT, now)
        _touch(match)
    return match
