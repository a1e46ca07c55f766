"""What every WebSocket consumer of the site shares, as one mixin, and the refusal of a path
that matches no route.

    class MatchConsumer(SiteSocket, AsyncWebsocketConsumer):
        socket_kind = "match"

- `SocketCaps` (`infra.socket_caps`): at most so many sockets of a kind per user and
  per address;
- `SessionBoundSocket` (`infra.session_sockets`): closed when its log-in ends;
- `WebSocketLimits` (`infra.ws_limits`): frame size, rate, nesting, departures;
- `OnDatabaseThreads` (`infra.db_threads`): a consumer calls the database one way,
  `await db_call(f, ...)`, on the site's pool of database threads.
"""

from __future__ import annotations

import logging
from typing import Any

from infra.db_threads import OnDatabaseThreads
from infra.handshakes import handshake_refuse
from infra.session_sockets import SessionBoundSocket
from infra.socket_caps import SocketCaps
from infra.ws_limits import WebSocketLimits

logger = logging.getLogger(__name__)


class SiteSocket(OnDatabaseThreads, SocketCaps, SessionBoundSocket, WebSocketLimits):
    """The site's socket behaviour; mix in before the Channels consumer class."""


async def no_such_route(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The last route: a path that matches no other (an unknown path, an id that is not a
    sane number) is refused at the handshake (HTTP 403), as a page would be a 404, rather
    than failing in the router. A plain ASGI application, not a consumer: a refusal needs no
    channel, origin check, session or user."""
    logger.info("websocket to %r refused: no such route", scope.get("path", "")[:200])
    await handshake_refuse(receive=receive, send=send)
