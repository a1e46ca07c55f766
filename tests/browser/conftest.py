"""Fixtures of the browser tests that open the game page as players."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model

from tests.games.sockets import session_cookie_for
from tests.support.processes import ManagedProcess


@pytest.fixture
def make_user():
    names = iter(range(1, 1000))

    def make(name: str):
        return get_user_model().objects.create_user(
            f"{name}{next(names)}", password="pw-Xk39-long"
        )

    return make


@pytest.fixture
def user_page(new_page: Callable[..., object], asgi_server: ManagedProcess):
    """A page in its own browser context, logged in as `user` or as the guest `guest_id`."""

    def open_as(user=None, guest_id: str = "", **context_options):
        page = new_page(**context_options)
        cookie = session_cookie_for(user, guest_id) if user or guest_id else ""
        if cookie:
            page.context.add_cookies([{
                "name": "sessionid", "value": cookie.split("=", 1)[1],
                "url": asgi_server.extra["url"],
            }])
        return page

    return open_as


@pytest.fixture
def player_page(user_page):
    """A page whose browser context is logged in as a new user of that name."""

    def open_as(name: str):
        return user_page(get_user_model().objects.create_user(name, password="pw-Xk39-long"))

    return open_as


@pytest.fixture(scope="module")
def orm_beside_playwright() -> Iterator[None]:
    """Let the ORM run beside sync Playwright's event loop (this thread is not async). A module
    asks for it after the servers it needs, which then keep Django's check."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture
def finished_duel(django_user_model):
    """A duel between alice and bob played to its end by the tests' players."""
    from django.utils import timezone

    from games.play.services import Player
    from games.play.time_control import TimeControl
    from tests.games.replays.conftest import play_match

    alice = django_user_model.objects.create_user("alice", password="pw-Xk39-long")
    bob = django_user_model.objects.create_user("bob", password="pw-Xk39-long")
    # Played from now on: its flag deadline (seen by the deadline watch of a Celery worker that
    # another module may have started) must not fall in the past while the moves are played.
    return play_match([Player(user=alice), Player(user=bob)],
                      time_control=TimeControl(180, 2), start=timezone.now())


@pytest.fixture
def analysed_duel(finished_duel):
    """The finished duel with its analysis stored (the server shares this cache)."""
    from django.core.cache import cache

    from games.replays.selectors import analysis_key
    from tests.browser.replay_page import analysis_of

    cache.set(analysis_key(finished_duel.pk), analysis_of(finished_duel), 300)
    return finished_duel
