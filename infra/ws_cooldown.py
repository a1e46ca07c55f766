"""A client closed for abusing a socket waits before it may open another.

A socket closed for a flood (4429), a frame too big (4009) or too many frames the server could
not understand (4008) puts its session under a cool-down of `WS_ABUSE_COOLDOWN_SECONDS`. Until
it ends, every WebSocket handshake that carries that session's cookie is refused (HTTP 403) by
`CooldownGate`, the first layer of the WebSocket stack: before the origin check, the session
and the user, and after a wait (`WS_REFUSAL_HOLD_SECONDS`). A script that reconnects at once
gets the servers to do as little as the ASGI server allows, as seldom as a held handshake
lets it, and the players' moves keep their pace beside it.

Honest clients send only what the server understands, far below the rate, and so never meet
it. The cool-down is the session's, never the address's: an address is shared by many people
behind one NAT, and a client without a session cookie has none (the per-connection limits
still close its sockets).

The cool-downs live in Redis (`REDIS_URL`), so that every process sees them, with the time
left as the key's expiry. Each process also remembers the cool-downs it has met until they
end, so a session that knocks again and again costs one read of Redis per process, then a
look-up in a dict. A cool-down is never lifted early, so what a process remembers stays true.
Without Redis (the embedded default, one process) that memory is the store.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http.cookie import parse_cookie

from infra.handshakes import REFUSAL, handshake_refuse
from infra.loop_redis import loop_redis

logger = logging.getLogger(__name__)

_PREFIX = "ws-cooldown:"
_PRUNE_AT = 10_000  # remembered cool-downs before the ended ones are dropped

_known: dict[str, float] = {}  # key -> when its cool-down ends (time.monotonic())


def _session_cookie(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name == b"cookie":
            cookie = parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
            if cookie:
                return str(cookie)
    return None


def _key(cookie: str) -> str:
    return cache.make_key(_PREFIX + hashlib.sha256(cookie.encode()).hexdigest()[:40])


def _remember(key: str, seconds: float) -> None:
    now = time.monotonic()
    if len(_known) >= _PRUNE_AT:
        for ended in [k for k, end in _known.items() if end <= now]:
            del _known[ended]
    _known[key] = now + seconds


async def cooldown_start(*, scope: dict[str, Any]) -> bool:
    """Put the session of this socket's handshake under the cool-down; False if it has none."""
    seconds = float(settings.WS_ABUSE_COOLDOWN_SECONDS)
    cookie = _session_cookie(scope.get("headers") or [])
    if cookie is None or seconds <= 0:  # 0: no cool-down (a settings module may turn it off)
        return False
    key = _key(cookie)
    _remember(key, seconds)
    if settings.REDIS_URL:
        try:
            await loop_redis().set(key, 1, px=max(1, round(seconds * 1000)))
        except Exception:  # Redis is away: the other processes will not know of it
            logger.warning("socket cool-down not stored", exc_info=True)
    return True


async def cooldown_left(*, scope: dict[str, Any]) -> float:
    """Seconds left of the cool-down of this handshake's session; 0 if it has none."""
    cookie = _session_cookie(scope.get("headers") or [])
    if cookie is None:
        return 0.0
    key = _key(cookie)
    end = _known.get(key)
    if end is not None:
        left = end - time.monotonic()
        if left > 0:
            return left
        del _known[key]
    if not settings.REDIS_URL:
        return 0.0
    try:
        left_ms = int(await loop_redis().pttl(key))  # -2: no such key
    except Exception:  # Redis is away: no cool-down is worth refusing players
        logger.warning("socket cool-down unreadable", exc_info=True)
        return 0.0
    if left_ms <= 0:
        return 0.0
    _remember(key, left_ms / 1000)
    return left_ms / 1000


class CooldownGate:
    """ASGI middleware, first in the WebSocket stack: refuses the handshakes of a session
    under a cool-down (`cooldown_start`).

    The refusal waits `WS_REFUSAL_HOLD_SECONDS` (never past the cool-down's end), unless the
    client leaves first: a client that knocks again at once then knocks a few times a minute,
    and each knock it makes costs the server a daphne handshake. At most `MAX_HELD` handshakes
    of a process wait at once; beyond them the refusal is at once, so that holding costs
    memory within a bound.
    """

    MAX_HELD = 2000

    def __init__(self, application: Any) -> None:
        self.application = application
        self.held = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await self.application(scope, receive, send)
        left = await cooldown_left(scope=scope)
        if left <= 0:
            return await self.application(scope, receive, send)
        hold = min(left, settings.WS_REFUSAL_HOLD_SECONDS)
        if hold <= 0 or self.held >= self.MAX_HELD:
            return await handshake_refuse(receive=receive, send=send)
        message = await receive()
        if message.get("type") != "websocket.connect":
            return None
        self.held += 1
        try:
            async with asyncio.timeout(hold):
                await receive()  # only websocket.disconnect can come before the answer
        except TimeoutError:
            await send(REFUSAL)
        finally:
            self.held -= 1
        return None
