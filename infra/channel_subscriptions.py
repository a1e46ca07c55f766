"""The channel layer's subscriptions to one Redis host, made in batches.

Every socket subscribes before its handshake is answered: its own channel (`new_channel`),
then a group or two (`group_add`). channels_redis's connection to a host subscribes one
channel at a time under one lock, a round of the event loop each, so a busy server makes a
few dozen subscriptions a second; a burst of sockets opening (a thousand players arriving in
a minute) then queued past the handshake's timeout, the clients came back, and the queue
grew until no handshake was answered at all (`python -m tests.load --duels 1000`). Here the
subscriptions and unsubscriptions that wait are sent together, up to `BATCH` of them in one
`UNSUBSCRIBE` and one `SUBSCRIBE`: a round trip or two serves them all.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Literal

from channels_redis import pubsub

BATCH = 500

Change = Literal["subscribe", "unsubscribe"]


class BatchedShardConnection(pubsub.RedisSingleShardConnection):  # type: ignore[misc]
    """channels_redis's connection to one host (receiving, reconnecting and flushing are
    its own), with `subscribe` and `unsubscribe` batched."""

    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._changes: deque[tuple[Change, str, asyncio.Future[None]]] = deque()
        self._applying: asyncio.Task[None] | None = None

    async def subscribe(self, channel: str) -> None:
        await self._change("subscribe", channel)

    async def unsubscribe(self, channel: str) -> None:
        await self._change("unsubscribe", channel)

    async def _change(self, change: Change, channel: str) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._changes.append((change, channel, done))
        if self._applying is None or self._applying.done():
            self._applying = asyncio.ensure_future(self._apply())
        # Shielded: a caller that gives up (a handshake timed out) leaves the batch whole.
        await asyncio.shield(done)

    async def _apply(self) -> None:
        """Send what waits, up to BATCH changes at a time. Changes of different channels
        commute, so a batch is one `UNSUBSCRIBE` and one `SUBSCRIBE` whatever their order
        (a burst of sockets opening while others close is not cut into batches of one);
        of one channel's changes the last one counts, so a channel left and entered again
        ends up entered."""
        while self._changes:
            batch = [self._changes.popleft()
                     for _ in range(min(BATCH, len(self._changes)))]
            wanted = {channel: change == "subscribe" for change, channel, _done in batch}
            try:
                async with self._lock:
                    enter = [c for c, inside in wanted.items()
                             if inside and c not in self._subscribed_to]
                    leave = [c for c, inside in wanted.items()
                             if not inside and c in self._subscribed_to]
                    if enter or leave:
                        self._ensure_redis()
                        self._ensure_receiver()
                    if leave:
                        await self._pubsub.unsubscribe(*leave)
                        self._subscribed_to.difference_update(leave)
                    if enter:
                        await self._pubsub.subscribe(*enter)
                        self._subscribed_to.update(enter)
            except asyncio.CancelledError:  # the loop is closing: so are its callers
                for _change, _channel, done in [*batch, *self._changes]:
                    done.cancel()
                self._changes.clear()
                raise
            except Exception as error:  # Redis away: these callers fail, the next try again
                for _change, _channel, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for _change, _channel, done in batch:
                if not done.done():
                    done.set_result(None)
