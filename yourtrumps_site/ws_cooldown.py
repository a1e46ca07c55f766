"""A client closed for abusing a socket waits before it may open another.

A socket closed for a flood (4429), a frame too big (4009) or too many frames the server could
not understand (4008) puts its session under a cool-down of `WS_ABUSE_COOLDOWN_SECONDS`. Until
it ends, every WebSocket handshake that carries that session's cookie is refused (HTTP 403) by
`CooldownGate`, before the session and the user are looked up: a script that reconnects at once
costs the servers one cache read per attempt instead of a session, a user and a consumer, and
the players' moves keep their pace beside it.

Honest clients send only what the server understands, far below the rate, and so never meet
it. A client without a session cookie has no cool-down (an address is shared by many people
behind one NAT); the per-connection limits still close its sockets. The cool-downs live in
Django's cache (Redis in production), so they hold across processes.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http.cookie import parse_cookie

logger = logging.getLogger(__name__)

_PREFIX = "ws-cooldown:"


def _session_cookie(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name == b"cookie":
            cookie = parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
            if cookie:
                return str(cookie)
    return None


def _key(cookie: str) -> str:
    return _PREFIX + hashlib.sha256(cookie.encode()).hexdigest()[:40]


async def cooldown_start(*, scope: dict[str, Any]) -> bool:
    """Put the session of this socket's handshake under the cool-down; False if it has none."""
    seconds = float(settings.WS_ABUSE_COOLDOWN_SECONDS)
    cookie = _session_cookie(scope.get("headers") or [])
    if cookie is None or seconds <= 0:  # 0: no cool-down (a settings module may turn it off)
        return False
    try:
        await cache.aset(_key(cookie), 1, timeout=seconds)
    except Exception:  # the cache is away: the socket is closed all the same
        logger.warning("socket cool-down not stored", exc_info=True)
        return False
    return True


async def cooling_down(*, scope: dict[str, Any]) -> bool:
    cookie = _session_cookie(scope.get("headers") or [])
    if cookie is None:
        return False
    try:
        return bool(await cache.aget(_key(cookie)))
    except Exception:  # the cache is away: no cool-down is worth refusing players
        logger.warning("socket cool-down unreadable", exc_info=True)
        return False


class CooldownGate:
    """ASGI middleware for the WebSocket stack: refuses the handshakes of a session under a
    cool-down (`cooldown_start`)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and await cooling_down(scope=scope):
            message = await receive()
            if message.get("type") == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})
            return None
        return await self.application(scope, receive, send)
