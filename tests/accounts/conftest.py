"""Helpers of the account tests: users, and finished games to fill a profile."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from games.play.models import Match, Seat, SeatResult, Status

PASSWORD = "correct horse 77"


@pytest.fixture
def make_user() -> Callable[..., User]:
    def make(username: str = "anna", email: str | None = None, password: str = PASSWORD) -> User:
        return user_create(
            username=username,
            email=email if email is not None else f"{username.lower()}@example.com",
            password=password,
        )

    return make


def finish_game(
    user: User,
    opponent: User | None,
    result: str,
    *,
    finished_at: datetime | None = None,
    rated: bool = False,
    rating_before: float | None = None,
    rating_after: float | None = None,
    status: str = Status.FINISHED,
) -> Match:
    """A two-seat match that `user` (seat 0) finished with `result` against `opponent`."""
    finished_at = finished_at or timezone.now()
    other = {SeatResult.WIN: SeatResult.LOSS, SeatResult.LOSS: SeatResult.WIN}.get(
        result, result
    )
    match = Match.objects.create(
        seed=1, dealer=0, rated=rated, status=status,
        finished_at=finished_at if status == Status.FINISHED else None,
        started_at=finished_at - timedelta(minutes=5),
    )
    over = status == Status.FINISHED
    Seat.objects.create(
        match=match, index=0, user=user, result=result if over else "",
        rating_before=rating_before, rating_after=rating_after,
    )
    Seat.objects.create(
        match=match, index=1, user=opponent, ai_level=None if opponent else 3,
        result=other if over else "",
    )
    return match


@pytest.fixture
def game() -> Callable[..., Match]:
    return finish_game
