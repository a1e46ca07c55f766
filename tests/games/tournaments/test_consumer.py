"""The tournament socket on a real daphne (PostgreSQL, Redis): a watcher's live standings,
the players sent to their game at once, and a message it does not understand."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from games.tournaments import services
from games.tournaments.schemas import server_message
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.games.sockets import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10


class TournamentSocket:
    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @classmethod
    async def open(cls, base_url: str, token: str, cookie: str = "",
                   query: str = "") -> TournamentSocket:
        return cls(await websockets.connect(
            f"{base_url.replace('http', 'ws')}/ws/tournament/{token}/{query}", origin=base_url,
            additional_headers={"Cookie": cookie} if cookie else {}))

    async def next(self, kind: str, until=lambda message: True) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.connection.recv(), TIMEOUT))
            if message["type"] != "error":
                server_message.validate_python(message)  # the contract of the schemas
            if message["type"] == kind and until(message):
                return message

    async def send_text(self, text: str) -> None:
        await self.connection.send(text)


def test_a_watcher_sees_the_standings_change_and_players_are_sent_to_their_game(
        asgi_server, make_player, arena):
    anna, boris = make_player(1600), make_player(1500)
    url = asgi_server.extra["url"]
    cookies = [session_cookie_for(anna), session_cookie_for(boris)]

    async def scenario():
        watcher = await TournamentSocket.open(url, arena.token)
        # Anna's page is a game page's strip: quiet, told of her games, not of the standings.
        players = [await TournamentSocket.open(url, arena.token, cookies[0], "?quiet=1"),
                   await TournamentSocket.open(url, arena.token, cookies[1])]
        try:
            first = await watcher.next("tournament")
            await asyncio.to_thread(services.tournament_join, user=anna, token=arena.token)
            await asyncio.to_thread(services.tournament_join, user=boris, token=arena.token)
            # The quiet one's very first message is its game: it was sent no standings.
            paired = [json.loads(await asyncio.wait_for(players[0].connection.recv(), TIMEOUT)),
                      await players[1].next("paired")]
            changed = await watcher.next("tournament", lambda m: len(m["games"]) == 1)
            await watcher.send_text('{"type": "join"}')
            refused = await watcher.next("error")
            return first, paired, changed, refused
        finally:
            for socket in (watcher, *players):
                await socket.connection.close()

    try:
        first, paired, changed, refused = asyncio.run(scenario())
    finally:
        wait_until_servers_are_quiet()

    assert first["status"] == "started"
    assert first["standings"] == []
    assert first["me"] is None
    assert paired[0]["type"] == "paired"
    assert paired[0]["url"] == paired[1]["url"] == changed["games"][0]["url"]
    assert [row["player"] for row in changed["standings"]] == [anna.username, boris.username]
    assert refused["code"] == "bad_message"
