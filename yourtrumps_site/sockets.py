"""What every WebSocket consumer of the site shares, as one mixin, and the refusal of a path
that matches no route.

    class MatchConsumer(SiteSocket, AsyncWebsocketConsumer):
        socket_kind = "match"

- `SocketCaps` (`yourtrumps_site.socket_caps`): at most so many sockets of a kind per user and
  per address;
- `SessionBoundSocket` (`yourtrumps_site.session_sockets`): closed when its log-in ends;
- `WebSocketLimits` (`yourtrumps_site.ws_limits`): frame size, rate, nesting, departures.
"""

from __future__ import annotations

import logging

from channels.generic.websocket import AsyncWebsocketConsumer

from yourtrumps_site.session_sockets import SessionBoundSocket
from yourtrumps_site.socket_caps import SocketCaps
from yourtrumps_site.ws_limits import WebSocketLimits

logger = logging.getLogger(__name__)


class SiteSocket(SocketCaps, SessionBoundSocket, WebSocketLimits):
    """The site's socket behaviour; mix in before the Channels consumer class."""


class NoSuchRoute(AsyncWebsocketConsumer):
    """The last route: a path that matches no other (an unknown path, an id that is not a
    sane number) is refused at the handshake (HTTP 403), as a page would be a 404, rather
    than failing in the router."""

    async def connect(self) -> None:
        logger.info("websocket to %r refused: no such route", self.scope.get("path", "")[:200])
        await self.close()
