"""Shared pieces of the notifications' tests: players, a duel between them, fresh limits."""

from __future__ import annotations

import pytest

from games.play import services
from games.play.services import Player
from tests.support.users import user_factory


@pytest.fixture(autouse=True)
def _fresh_rate_limits(db):
    """Each test starts with fresh rate-limit counters (the cache is this run's Redis)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_user(db):
    return user_factory("nf", with_email=True)


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def duel(alice, bob):
    return services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=7, dealer=1, trumps="SH"
    )
