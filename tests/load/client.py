"""A small asyncio client of the match socket (`/ws/match/<id>/`), shared by the load tool,
the fault tests and the hostile-input tests. It keeps the last state, and answers the two
questions every test asks: what is the next message of a type, and has a version arrived."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

TIMEOUT = 10.0


def ws_url(http_url: str, path: str) -> str:
    return http_url.replace("http://", "ws://").replace("https://", "wss://") + path


async def connect(http_url: str, path: str, cookie: str = "", origin: str | None = None,
                  **options: Any) -> Any:
    headers = {"Cookie": cookie} if cookie else {}
    return await websockets.connect(
        ws_url(http_url, path), origin=origin if origin is not None else http_url,
        additional_headers=headers, open_timeout=TIMEOUT, **options,
    )


class MatchClient:
    """One socket on a match: `state` is the newest state seen, `frames` every frame (text)."""

    def __init__(self, connection: Any, keep_frames: bool = False) -> None:
        self.connection = connection
        self.state: dict[str, Any] | None = None
        self.keep_frames = keep_frames
        self.frames: list[str] = []

    @classmethod
    async def open(cls, http_url: str, match_id: int, cookie: str = "",
                   keep_frames: bool = False, **options: Any) -> MatchClient:
        connection = await connect(http_url, f"/ws/match/{match_id}/", cookie, **options)
        client = cls(connection, keep_frames)
        await client.next("state")
        return client

    async def send(self, message: Any) -> None:
        await self.connection.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        text = await asyncio.wait_for(self.connection.recv(), timeout)
        if self.keep_frames:
            self.frames.append(text)
        message = json.loads(text)
        if message.get("type") == "state" and (
            self.state is None or message["version"] >= self.state["version"]
        ):
            self.state = message
        return message

    async def next(self, *types: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message.get("type") in types:
                return message

    async def state_at(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        while self.state is None or self.state["version"] < version:
            await self.next("state", timeout=timeout)
        return self.state

    async def close(self) -> None:
        await self.connection.close()
