"""The channel layer with Redis: channels_redis's pub/sub layer, whose `group_send` writes on
a connection of its own.

channels_redis publishes through redis-py's client: a connection taken from a pool under a
lock held for the whole round trip, a task to time the write out, the answer awaited and
parsed. A move's broadcast cost a daphne about 0.6 ms of CPU that way (`bench/move_cost.py`,
docs/reliability.md), a quarter of the move. Here each event loop publishes on one plain
asyncio connection per Redis host: `group_send` writes the `PUBLISH` and returns; Redis's
answers (how many subscribers heard it, or an error, which is logged) are read as they come,
in order. Receiving is channels_redis's own; subscribing is batched
(`infra.channel_subscriptions`).

Delivery is at most once, as before: a connection that drops loses what it was still
sending (logged) and the next `group_send` connects again; a `group_send` that cannot
connect raises, as channels_redis's does. When an event loop closes, its connections are
closed once Redis has answered what they sent (channels_redis closes its own the same way).
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from typing import Any

from channels_redis import pubsub
from channels_redis.utils import _consistent_hash, _wrap_close
from redis.asyncio.connection import parse_url

from infra.channel_subscriptions import BatchedShardConnection

logger = logging.getLogger(__name__)

# What a connection may hold unsent (Redis stopped reading) before it is given up: a broadcast
# is a few kilobytes, so this is thousands of them.
WRITE_BUFFER_LIMIT = 8 * 1024 * 1024
CONNECT_TIMEOUT_SECONDS = 5.0
CLOSE_WAIT_SECONDS = 1.0


def _command(*parts: bytes) -> bytes:
    """`parts` as one command in Redis's protocol (RESP)."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out += (b"$%d\r\n" % len(part), part, b"\r\n")
    return b"".join(out)


class _Publisher(asyncio.Protocol):
    """One connection to Redis that sends commands without waiting, and reads their answers
    (single lines in RESP2: `:n`, `+OK`, `-error`) as they come."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.unanswered = 0
        self.closed = asyncio.get_running_loop().create_future()
        self._answered: asyncio.Future[None] | None = None  # awaited by `aclose`
        self._rest = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        lines = (self._rest + data).split(b"\r\n")
        self._rest = lines.pop()
        self.unanswered -= len(lines)
        for line in lines:
            if line[:1] == b"-":
                logger.error("Redis refused a command of the channel layer's publisher: %s",
                             line[1:].decode(errors="replace"))
        if self.unanswered <= 0 and self._answered is not None and not self._answered.done():
            self._answered.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.unanswered > 0:
            logger.warning("the channel layer's connection to Redis closed with %d commands "
                           "unanswered (%s)", self.unanswered, exc or "closed")
        for waited in (self.closed, self._answered):
            if waited is not None and not waited.done():
                waited.set_result(None)

    @property
    def usable(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    def send(self, command: bytes) -> None:
        assert self.transport is not None
        if self.transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            self.transport.abort()
            raise ConnectionError("Redis is not reading what the channel layer sends")
        self.transport.write(command)
        self.unanswered += 1

    async def aclose(self) -> None:
        """Close once Redis has answered what was sent (or after `CLOSE_WAIT_SECONDS`)."""
        if self.transport is None:
            return
        if self.unanswered > 0 and not self.transport.is_closing():
            self._answered = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(self._answered, CLOSE_WAIT_SECONDS)
            except TimeoutError:
                logger.warning("Redis did not answer the channel layer's last commands")
        self.transport.close()
        await asyncio.wait_for(asyncio.shield(self.closed), CLOSE_WAIT_SECONDS)


async def _connect(host: dict[str, Any]) -> _Publisher:
    """A publishing connection to the host of channels_redis's `hosts` setting (an `address`
    URL: redis://, rediss:// or unix://), authenticated if the URL has a password."""
    if "address" not in host:
        raise ValueError("the channel layer's hosts are given by their addresses (URLs)")
    options = parse_url(host["address"])
    loop = asyncio.get_running_loop()
    connecting: Any
    if "path" in options:
        connecting = loop.create_unix_connection(_Publisher, options["path"])
    else:
        secure = host["address"].startswith("rediss:")
        connecting = loop.create_connection(
            _Publisher, options.get("host", "localhost"), options.get("port", 6379),
            ssl=ssl.create_default_context() if secure else None)
    _transport, publisher = await asyncio.wait_for(connecting, CONNECT_TIMEOUT_SECONDS)
    if "password" in options:
        credentials = [options["password"].encode()]
        if "username" in options:
            credentials.insert(0, options["username"].encode())
        publisher.send(_command(b"AUTH", *credentials))
    return publisher


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    """channels_redis's layer of one event loop, publishing on `_Publisher`s."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [BatchedShardConnection(shard.host, self) for shard in self._shards]
        self._publishers: dict[int, _Publisher] = {}
        self._connecting: dict[int, asyncio.Future[_Publisher]] = {}

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if not self.group_send_nowait(group, message):
            channel = self._get_group_channel_name(group)
            publisher = await self._publisher(_consistent_hash(channel, len(self._shards)))
            publisher.send(_command(b"PUBLISH", channel.encode(),
                                    self.channel_layer.serialize(message)))

    def group_send_nowait(self, group: str, message: dict[str, Any]) -> bool:
        """`group_send` on the connection this loop has, if it has one (else False: nothing
        was sent)."""
        channel = self._get_group_channel_name(group)
        publisher = self._publishers.get(_consistent_hash(channel, len(self._shards)))
        if publisher is None or not publisher.usable:
            return False
        publisher.send(_command(b"PUBLISH", channel.encode(),
                                self.channel_layer.serialize(message)))
        return True

    async def _publisher(self, shard: int) -> _Publisher:
        """The shard's connection, made if there is none (one at a time)."""
        connecting = self._connecting.get(shard)
        if connecting is None:
            connecting = asyncio.ensure_future(self._connect(shard))
            self._connecting[shard] = connecting
        return await asyncio.shield(connecting)

    async def _connect(self, shard: int) -> _Publisher:
        try:
            publisher = await _connect(self._shards[shard].host)
            self._publishers[shard] = publisher
            return publisher
        finally:
            del self._connecting[shard]

    async def flush(self) -> None:
        publishers, self._publishers = list(self._publishers.values()), {}
        for publisher in publishers:
            try:
                await publisher.aclose()
            except (TimeoutError, OSError):
                logger.warning("the channel layer's connection to Redis did not close cleanly")
        await super().flush()


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer (same settings), whose `group_send` is `_LoopLayer`'s."""

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer  # type: ignore[no-any-return]

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._get_layer().group_send(group, message)

    def group_send_nowait(self, group: str, message: dict[str, Any]) -> bool:
        """For code on the event loop that will not wait: `group_send` at once if this loop
        is connected to Redis (True), else nothing (False: `group_send` connects)."""
        return self._get_layer().group_send_nowait(group, message)
