"""A client of the lobby socket on a real daphne, for the tests and the latency bench."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from games.matchmaking.schemas import server_message

TIMEOUT = 10


class LobbySocket:
    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.lobby: dict[str, Any] | None = None

    @classmethod
    async def open(cls, base_url: str, cookie: str, **headers: str) -> LobbySocket:
        """`headers`: more request headers, such as `accept_language="pl"`."""
        extra = {name.replace("_", "-"): value for name, value in headers.items()}
        connection = await websockets.connect(
            f"{base_url.replace('http', 'ws')}/ws/lobby/", origin=base_url,
            additional_headers={**extra, **({"Cookie": cookie} if cookie else {})},
        )
        return cls(connection)

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def next(self, *types: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message of one of `types` (lobby states seen meanwhile are remembered)."""
        while True:
            message = json.loads(await asyncio.wait_for(self.connection.recv(), timeout))
            server_message.validate_python(message)  # the contract of games.matchmaking.schemas
            if message["type"] == "lobby":
                self.lobby = message
            if message["type"] in types:
                return message

    async def close(self) -> None:
        await self.connection.close()
