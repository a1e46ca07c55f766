"""Fixtures of the security and hostile-input tests: users, and a wait for sockets to close."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def make_user(db):
    counter = iter(range(1, 10_000))

    def make(name: str | None = None, **extra):
        name = name or f"sec{next(counter)}"
        return get_user_model().objects.create_user(name, password="pw-Xk39-long", **extra)

    return make


@pytest.fixture
def sockets_settled():
    """After a test with match sockets on a real server, wait until the server has handled
    their closing (the presence update), so the flush between tests does not race it."""
    yield
    from games.play.models import Seat

    deadline = time.monotonic() + 10
    while Seat.objects.filter(connections__gt=0).exists() and time.monotonic() < deadline:
        time.sleep(0.02)

