"""The socket's user is read on the database threads (`infra.session_user`), not on Channels'
one shared database thread: a handshake never waits behind another's work there."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware
from django.contrib.auth import get_user_model

from infra.session_user import SessionUserMiddleware
from tests.load.sessions import session_cookie
from tests.support.asgi import Handshake, websocket_scope

pytestmark = pytest.mark.django_db(transaction=True)


def stack_seeing_users(seen: list) -> object:
    async def app(scope, receive, send) -> None:
        seen.append(scope["user"])

    return CookieMiddleware(SessionUserMiddleware(app))


async def user_of(cookie: str) -> object:
    seen: list = []
    client = Handshake()
    await stack_seeing_users(seen)(websocket_scope("/ws/site/", {"Cookie": cookie}),
                                   client.receive, client.send)
    return seen[0]


async def test_the_user_is_read_while_channels_shared_database_thread_is_busy():
    anna = await sync_to_async(get_user_model().objects.create_user)("anna", password="x")
    cookie = await sync_to_async(session_cookie)(anna)
    release = threading.Event()
    # Channels' consumers and its AuthMiddleware share this one thread: hold it.
    holding = asyncio.ensure_future(database_sync_to_async(release.wait)(30))
    try:
        user = await asyncio.wait_for(user_of(cookie), 10)
        assert not holding.done()
    finally:
        release.set()
        await holding
    assert user.is_authenticated
    assert user.pk == anna.pk


async def test_a_session_whose_password_changed_is_anonymous_and_a_visitor_too():
    boris = await sync_to_async(get_user_model().objects.create_user)("boris", password="x")
    cookie = await sync_to_async(session_cookie)(boris)
    boris.set_password("another")
    await sync_to_async(boris.save)()

    assert not (await user_of(cookie)).is_authenticated
    assert not (await user_of("")).is_authenticated


async def test_the_socket_has_its_cookies_session_and_sends_through_the_server_alone():
    cookie = await sync_to_async(session_cookie)(guest_id="g-1234")
    seen: dict = {}

    async def app(scope, receive, send) -> None:
        seen.update(session=scope["session"], user=scope["user"], send=send)

    client = Handshake()
    await CookieMiddleware(SessionUserMiddleware(app))(
        websocket_scope("/ws/site/", {"Cookie": cookie}), client.receive, client.send)
    assert seen["session"].session_key == cookie.partition("=")[2]
    assert seen["session"].get("guest_id") == "g-1234"
    assert not seen["user"].is_authenticated
    # No layer between the consumer and the server: a socket's session is never saved by
    # what it sends, so nothing has to look at each frame.
    assert seen["send"] == client.send


async def test_without_the_cookie_middleware_above_it_the_stack_is_refused_at_once():
    async def app(scope, receive, send) -> None:
        raise AssertionError("not reached")

    client = Handshake()
    with pytest.raises(ValueError, match="CookieMiddleware"):
        await SessionUserMiddleware(app)(websocket_scope("/ws/site/", {}), client.receive,
                                         client.send)
