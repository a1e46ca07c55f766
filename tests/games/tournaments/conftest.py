"""Shared pieces of the arena tests: players with chosen ratings, an arena that is on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import PlayerRating
from games.play.time_control import TimeControl
from games.tournaments import services


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_player(db):
    counter = iter(range(1, 100_000))

    def make(rating: float | None = None):
        user = get_user_model().objects.create_user(f"ar{next(counter)}", password="pw-Xk39-long")
        if rating is not None:
            PlayerRating.objects.create(user=user, rating=rating, deviation=60.0)
        return user

    return make


@pytest.fixture
def arena(db):
    """An arena of 3+2 that started a moment ago and lasts an hour (real instants: the
    deadline watch of a Celery worker another module started may look at it too)."""
    now = timezone.now()
    tournament = services.tournament_create(
        creator=None, name="Test arena", time_control=TimeControl(180, 2),
        starts_at=now - timedelta(seconds=1), minutes=60)
    services.tournaments_tick(now=now)
    tournament.refresh_from_db()
    return tournament
