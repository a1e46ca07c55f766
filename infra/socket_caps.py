"""How many sockets of each kind (match, lobby, site) one user and one address may hold open.

A player with a few tabs holds a few of each (every page has a site socket, the game page a
match socket, the lobby a lobby socket); a script that opens sockets by the dozen holds
memory and a slot of every broadcast on each. Past `WS_MAX_SOCKETS_PER_USER` sockets of a
kind for one signed-in user, or `WS_MAX_SOCKETS_PER_ADDRESS` for one client address (set
higher: a school or a mobile carrier puts many people behind one address), a new socket is
accepted, sent `{"type": "error", "code": "too_many_sockets", ...}` and closed with code
4013 (as RFC 6455's 1013 "try again later", in the range an application may send). The
sockets already open are not touched.

The count holds across processes: with Redis (`REDIS_URL`) each socket is a member of a
sorted set per (kind, user) and per (kind, address), scored by when its process last said it
was still open. Every process renews its sockets' scores every `REFRESH_SECONDS`, and a
member older than `STALE_SECONDS` is dropped, so the sockets of a process that died stop
counting within that time. Claiming a place is one Lua script (atomic: two connects at once
cannot both take the last place). Without Redis (the embedded default, one process) the
count is kept in the process.

The same count says who is online (`users_online`): a player with a site socket open, that
is a page of the site open somewhere (the friends list of the header, `yourtrumps_site.friends`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy

from infra.loop_redis import loop_redis

logger = logging.getLogger(__name__)

CLOSE_TOO_MANY_SOCKETS = 4013  # as RFC 6455's 1013 "try again later"
TOO_MANY_SOCKETS = "too_many_sockets"
REFRESH_SECONDS = 20.0
STALE_SECONDS = 3 * REFRESH_SECONDS

# KEYS: the sets to enter. ARGV: now, stale before, member, one limit per key, the sets' TTL.
# Returns 0 when entered, else the 1-based index of the first full set.
_CLAIM = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[1], ARGV[3])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[4 + #KEYS])))
end
return 0
"""

# KEYS: sets; ARGV: now, the sets' TTL, then the member each key holds (KEYS[i]: ARGV[2 + i]).
_RENEW = """
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', ARGV[1], ARGV[2 + i])
  redis.call('EXPIRE', key, ARGV[2])
end
return #KEYS
"""
RENEW_BATCH = 500


def _places(kind: str, user_id: int | None, address: str) -> list[tuple[str, str, int]]:
    """(scope, set name, limit) of each count a socket of `kind` enters."""
    places = []
    if user_id is not None:
        places.append(("user", f"sockets:{kind}:user:{user_id}",
                       settings.WS_MAX_SOCKETS_PER_USER))
    places.append(("address", f"sockets:{kind}:address:{address}",
                   settings.WS_MAX_SOCKETS_PER_ADDRESS))
    return places


class _Registry:
    """The sockets of this process that hold a place, and the counts' store."""

    def __init__(self) -> None:
        self.held: dict[str, list[str]] = {}  # channel name -> set names
        self.local: dict[str, set[str]] = defaultdict(set)  # without Redis
        self.client: Any = None
        self.refresher: asyncio.Task[None] | None = None

    def _redis(self) -> Any:
        client = loop_redis()
        if client is not self.client:  # the first call, or another event loop's
            self.client = client
            self.claim_script = client.register_script(_CLAIM)
            self.renew_script = client.register_script(_RENEW)
            self.refresher = asyncio.get_running_loop().create_task(self._refresh())
        return self.client

    async def claim(self, channel: str, places: list[tuple[str, str, int]]) -> str | None:
        """Enter every count, or none: None when entered, else the scope that is full."""
        names = [cache.make_key(name) for _scope, name, _limit in places]
        if not settings.REDIS_URL:
            for (scope, _name, limit), name in zip(places, names, strict=True):
                if len(self.local[name]) >= limit:
                    return scope
            for name in names:
                self.local[name].add(channel)
            self.held[channel] = names
            return None
        self._redis()
        now = time.time()
        full = await self.claim_script(
            keys=names,
            args=[now, now - STALE_SECONDS, channel,
                  *(limit for _scope, _name, limit in places), 2 * STALE_SECONDS],
        )
        if full:
            return places[int(full) - 1][0]
        self.held[channel] = names
        return None

    async def release(self, channel: str) -> None:
        names = self.held.pop(channel, None)
        if not names:
            return
        if not settings.REDIS_URL:
            for name in names:
                self.local[name].discard(channel)
                if not self.local[name]:
                    del self.local[name]
            return
        async with self._redis().pipeline(transaction=False) as pipe:
            for name in names:
                pipe.zrem(name, channel)
            await pipe.execute()

    async def users_online(self, *, kind: str, user_ids: list[int]) -> set[int]:
        """Those of `user_ids` holding a socket of `kind` now (a page open: "online")."""
        names = {user_id: cache.make_key(f"sockets:{kind}:user:{user_id}")
                 for user_id in user_ids}
        if not settings.REDIS_URL:
            return {user_id for user_id, name in names.items() if self.local.get(name)}
        if not names:
            return set()
        self._redis()
        fresh = time.time() - STALE_SECONDS
        async with self.client.pipeline(transaction=False) as pipe:
            for name in names.values():
                pipe.zcount(name, fresh, "+inf")
            counts = await pipe.execute()
        return {user_id for user_id, count in zip(names, counts, strict=True) if count}

    async def _refresh(self) -> None:
        """Tell the store, every REFRESH_SECONDS, that this process's sockets are open."""
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.renew()
            except Exception:  # Redis restarting: the next round renews them
                logger.warning("could not renew the socket counts", exc_info=True)

    async def renew(self) -> None:
        """Score every held socket's places with now (a place dropped as stale stays out).

        In scripts of RENEW_BATCH places with the loop free between them: made command by
        command in redis-py, the round of a server with 1,000 sockets open holds its loop for
        a few hundred milliseconds, a delay that every move in flight then meets."""
        self._redis()
        places = [(name, channel) for channel, names in list(self.held.items())
                  for name in names]
        ttl = int(2 * STALE_SECONDS)
        for start in range(0, len(places), RENEW_BATCH):
            batch = places[start:start + RENEW_BATCH]
            await self.renew_script(keys=[name for name, _channel in batch],
                                    args=[time.time(), ttl,
                                          *(channel for _name, channel in batch)])


registry = _Registry()


class SocketCaps:
    """A mixin for the site's consumers (before the Channels class); the class names its
    `socket_kind` ("match", "lobby" or "site")."""

    socket_kind: str = "site"
    socket_counted: bool = False

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        scope = self.scope  # type: ignore[attr-defined]
        user = scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        address = str((scope.get("client") or ["unknown"])[0])
        try:
            full = await registry.claim(self.channel_name,  # type: ignore[attr-defined]
                                        _places(self.socket_kind, user_id, address))
        except Exception:  # the counts' store is away: a cap is not worth refusing players
            logger.warning("socket count unavailable; socket not counted", exc_info=True)
            full = None
        else:
            self.socket_counted = full is None
        if full is not None:
            self.ws_closing = True  # frames sent before the close are dropped unread
            await self._too_many_sockets(full)
            return
        await super().websocket_connect(message)  # type: ignore[misc]

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.socket_counted:
            self.socket_counted = False
            with contextlib.suppress(Exception):
                await registry.release(self.channel_name)  # type: ignore[attr-defined]
        await super().websocket_disconnect(message)  # type: ignore[misc]

    async def _too_many_sockets(self, scope_name: str) -> None:
        words = (
            gettext_lazy("Too many open connections from your account. Close a few tabs and "
                         "reload.") if scope_name == "user"
            else gettext_lazy("Too many open connections from your network. Close a few tabs "
                              "and reload.")
        )
        await self.accept()  # type: ignore[attr-defined]
        # Said as every refusal of the socket layer is (`WebSocketLimits`, mixed in beside).
        await self._ws_refuse(TOO_MANY_SOCKETS, words)  # type: ignore[attr-defined]
        await self.close(code=CLOSE_TOO_MANY_SOCKETS)  # type: ignore[attr-defined]
