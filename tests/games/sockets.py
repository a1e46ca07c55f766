"""Helpers for talking to a real daphne's match socket with `websockets`."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets
from django.test import Client

from games.play.schemas import server_message

TIMEOUT = 10


def session_cookie_for(user=None, guest_id: str = "") -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    if guest_id:
        session = client.session
        session["guest_id"] = guest_id
        session.save()
        client.cookies["sessionid"] = session.session_key
    return f"sessionid={client.cookies['sessionid'].value}" if "sessionid" in client.cookies \
        else ""


class MatchSocket:
    """One client socket: sends JSON, and waits for the next message of a given type. Every
    message the server sends is checked against the contract (`games.play.schemas`)."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, server, match_id: int, cookie: str = "") -> MatchSocket:
        url = server.extra["url"]
        headers = {"Cookie": cookie} if cookie else {}
        connection = await websockets.connect(
            f"{url.replace('http', 'ws')}/ws/match/{match_id}/", origin=url,
            additional_headers=headers,
        )
        socket = cls(connection)
        await socket.next("state")
        return socket

    async def send(self, message: Any) -> None:
        await self.connection.send(message if isinstance(message, str) else json.dumps(message))

    async def next(self, *types: str) -> dict[str, Any]:
        """The next message of one of `types` (states seen meanwhile are remembered)."""
        while True:
            message = json.loads(await asyncio.wait_for(self.connection.recv(), TIMEOUT))
            server_message.validate_python(message)
            if message["type"] == "state":
                self.state = message
            if message["type"] in types:
                return message

    async def state_at(self, version: int) -> dict[str, Any]:
        """Wait until this socket has seen a state of at least `version`."""
        while self.state is None or self.state["version"] < version:
            await self.next("state")
        return self.state

    async def close(self) -> None:
        await self.connection.close()
