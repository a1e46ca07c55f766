"""The site socket on a real daphne with the Redis channel layer: a player's open pages hear
of a new notification at once, in their language, and of the ones another page marked read.
Every message is checked against `notifications.schemas`."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.test import Client

from games.matchmaking import services as matchmaking
from notifications import schemas, services
from tests.games.sockets import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)
SCHEMAS = {"notifications": schemas.Notifications, "notification": schemas.Notification}


async def next_of(socket, kind: str) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] in SCHEMAS:
            SCHEMAS[message["type"]].model_validate(message)
        if message["type"] == kind:
            return message


def test_a_players_pages_hear_of_a_challenge_at_once_and_of_reading_it(
    asgi_server, make_user
):
    alice, bob = make_user("sockalice"), make_user("sockbob", language="eu")
    cookie = session_cookie_for(bob)
    url = asgi_server.extra["url"]

    async def scenario():
        pages = [await websockets.connect(f"{url.replace('http', 'ws')}/ws/site/", origin=url,
                                          additional_headers={"Cookie": cookie})
                 for _ in range(2)]
        try:
            first = [await next_of(page, "notifications") for page in pages]
            await sync_to_async(matchmaking.challenge_create)(
                challenger=alice, challenged=bob, time_control="3+2", rated=True)
            new = [await next_of(page, "notification") for page in pages]
            await sync_to_async(services.notifications_mark_read)(user_id=bob.pk)
            read = await next_of(pages[1], "notifications")
            return first, new, read
        finally:
            for page in pages:
                await page.close()

    first, new, read = asyncio.run(scenario())
    assert [message["unread"] for message in first] == [0, 0]
    assert [message["unread"] for message in new] == [1, 1]
    item = new[0]["item"]
    assert item["kind"] == "challenge"
    assert item["alert"]
    assert item["accept_url"].endswith("/accept/")
    assert "sockalice" in item["text"]
    assert "desafiatzen" in item["text"]  # in Basque, the language bob saved
    assert read["unread"] == 0
    assert read["items"][0]["read"]


def test_a_visitor_hears_no_notifications(asgi_server):
    url = asgi_server.extra["url"]

    async def scenario():
        async with websockets.connect(f"{url.replace('http', 'ws')}/ws/site/",
                                      origin=url) as page:
            try:
                return json.loads(await asyncio.wait_for(page.recv(), 0.5))
            except TimeoutError:
                return None

    assert asyncio.run(scenario()) is None
    assert Client().get("/").content.count(b"notifications-config") == 0
