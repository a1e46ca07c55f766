"""The server's clocks: a seat's time left and the instant the mover's flag falls."""

from __future__ import annotations

from datetime import datetime, timedelta

from games.play.models import (
    Match,
    Seat,
    Status,
)


def _elapsed_ms(match: Match, now: datetime) -> int:
    if match.turn_started_at is None:
        return 0
    return max(0, int((now - match.turn_started_at).total_seconds() * 1000))


def remaining_ms(match: Match, seat: Seat, now: datetime) -> int | None:
    """A seat's time left now: it runs only for the seat to move while the game is played."""
    if seat.clock_ms is None:
        return None
    if match.status == Status.PLAYING and match.to_move == seat.index:
        return seat.clock_ms - _elapsed_ms(match, now)
    return seat.clock_ms


def flag_at(match: Match, seats: list[Seat]) -> datetime | None:
    """The instant the mover's clock reaches zero, if it is running."""
    if match.status != Status.PLAYING or match.to_move is None or match.turn_started_at is None:
        return None
    clock = seats[match.to_move].clock_ms
    if clock is None:
        return None
    return match.turn_started_at + timedelta(milliseconds=clock)
