"""NDJSON streams over plain HTTP: one JSON object a line, an empty line while there is
nothing to say (every `API_STREAM_KEEPALIVE_SECONDS`).

A stream listens on the channel layer, to the same group events the site's sockets hear
(`match-<id>`, `user-<id>`): no polling, and any daphne process serves any stream. A stream
holds no state a client cannot get back: after a restart of the server the client opens it
again and is sent the whole present first (the games under way, the challenges open, the
game's full state).

The layer's `receive` gives up its channel when cancelled, so one task per stream reads the
channel into a queue, and the stream waits on the queue, with the keep-alive's timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import StreamingHttpResponse

NDJSON = "application/x-ndjson"


def line(item: dict[str, Any]) -> bytes:
    return (json.dumps(item, separators=(",", ":")) + "\n").encode()


def ndjson_response(lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the lines back
    return response


class ListenerLost(Exception):
    pass


class Listener:
    """A channel of the layer in some groups, read into a queue by a task of its own."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups: set[str] = set()
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def open(self, *groups: str) -> None:
        if self.layer is None:
            return
        self.channel = await self.layer.new_channel()
        self._reader = asyncio.get_running_loop().create_task(self._read())
        for group in groups:
            await self.join(group)

    async def join(self, group: str) -> None:
        if self.layer is not None and group not in self.groups:
            await self.layer.group_add(group, self.channel)
            self.groups.add(group)

    async def leave(self, group: str) -> None:
        if self.layer is not None and group in self.groups:
            self.groups.discard(group)
            await self.layer.group_discard(group, self.channel)

    async def _read(self) -> None:
        assert self.layer is not None
        while True:
            self._queue.put_nowait(await self.layer.receive(self.channel))

    async def next(self) -> dict[str, Any] | None:
        """The next event, or None after the keep-alive's interval without one. Raises
        `ListenerLost` once the channel can no longer be read (Redis went away): the stream
        ends, and its client opens it again, listening anew."""
        if self._reader is not None and self._reader.done():
            raise ListenerLost
        try:
            return await asyncio.wait_for(self._queue.get(),
                                          settings.API_STREAM_KEEPALIVE_SECONDS)
        except TimeoutError:
            return None

    async def close(self) -> None:
        for group in list(self.groups):
            with contextlib.suppress(Exception):  # the layer is away: its groups expire
                await self.leave(group)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
