"""Fixtures of the security and hostile-input tests: users, and a wait for sockets to close."""

from __future__ import annotations

import time

import pytest

from tests.support.users import user_factory


@pytest.fixture
def make_user(db):
    return user_factory("sec")


@pytest.fixture
def sockets_settled():
    """After a test with match sockets on a real server, wait until the server has handled
    their closing (the presence update), so the flush between tests does not race it."""
    yield
    from games.play.models import Seat

    deadline = time.monotonic() + 10
    while Seat.objects.filter(connections__gt=0).exists() and time.monotonic() < deadline:
        time.sleep(0.02)

