"""A WebSocket handshake as daphne hands it to an ASGI application, for tests of the
application's outer layers in this process."""

from __future__ import annotations

import asyncio
import time


class Handshake:
    """One client's handshake: `websocket.connect` first, then `websocket.disconnect` once
    `leave()` is called; what the application sends is kept in `sent`, with the seconds
    since the handshake began."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.sent: list[tuple[float, dict]] = []
        self.started = time.monotonic()

    async def receive(self) -> dict:
        return await self.inbox.get()

    async def send(self, message: dict) -> None:
        self.sent.append((time.monotonic() - self.started, message))

    def leave(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    @property
    def messages(self) -> list[dict]:
        return [message for _, message in self.sent]


def websocket_scope(path: str, headers: dict[str, str]) -> dict:
    return {"type": "websocket", "path": path, "scheme": "ws", "server": ("127.0.0.1", 80),
            "client": ("127.0.0.1", 50000),
            "headers": [(name.lower().encode(), value.encode()) for name, value in headers.items()]}
