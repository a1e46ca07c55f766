"""Per-connection limits for the site's WebSocket consumers: frame size and message rate.

Mix `WebSocketLimits` in *before* the Channels consumer class:

    class MatchConsumer(WebSocketLimits, AsyncWebsocketConsumer): ...

Every frame from the client passes two checks before the consumer's `receive` sees it:

- **Size.** A frame longer than `WS_MAX_FRAME_BYTES` (characters of a text frame, bytes of a
  binary one) closes the connection with code 4009 (an application may only send 1000 or
  3000-4999, so this is RFC 6455's 1009 "message too big" in the application's range).
  Daphne itself refuses frames over 1 MiB before they reach the application.
- **Rate.** A token bucket per connection: `WS_BURST` messages at once, refilled at
  `WS_RATE_PER_SECOND`. A client that runs the bucket dry is sent one
  `{"type": "error", "code": "rate_limited", ...}` and the connection is closed with code
  4429. A person clicking, or a client that syncs after a gap, stays far below the limit.

- **Nesting.** A text frame whose JSON brackets nest deeper than `WS_MAX_JSON_DEPTH` is
  answered `{"type": "error", "code": "bad_message", ...}` and not passed on: Python's JSON
  parser raises `RecursionError` (not `ValueError`) near depth 1000, which would crash the
  consumer. The site's messages are flat objects.

- **Junk.** A connection that sends `WS_MAX_BAD_FRAMES` frames the server cannot understand
  (not JSON, not a message of the socket, too deep) is closed with code 4008 (RFC 6455's 1008
  "policy violation" in the application's range). The consumers count them with `ws_strike`;
  a refusal of a well-formed message (a move at a stale ply, a move that is not legal) is not
  junk: an honest client meets those in a race.

- **Cool-down.** A close for a flood, a huge frame or junk puts the session under a cool-down
  (`infra.ws_cooldown`): its new sockets are refused at the handshake for a while.

- **Departure.** Nothing is sent once the client has gone (a reply to a client that left
  while it was being answered is dropped, not an error of the application).

- **Outage.** A database error while a message is handled (PostgreSQL restarting or refusing
  connections) is answered `{"type": "error", "code": "unavailable", ...}` instead of crashing
  the consumer: the service's transaction was rolled back, so the client may send it again.

After the close, frames still queued for the connection are dropped unread. The limits are
settings (declared with their defaults in `yourtrumps_site.settings`) so that a test or a
deployment may tune them.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from autobahn.exception import Disconnected
from django.conf import settings
from django.db import DatabaseError, InterfaceError
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from accounts.languages import language_for_scope
from infra.json_text import json_text, json_value
from infra.ws_cooldown import cooldown_start

logger = logging.getLogger(__name__)

CLOSE_TOO_BIG = 4009  # as RFC 6455's 1009, a message too big, in the range apps may send
CLOSE_FLOOD = 4429  # the application's code for "too many messages" (like HTTP 429)
CLOSE_JUNK = 4008  # as RFC 6455's 1008, a policy violation, in the range apps may send
RATE_LIMITED = "rate_limited"
UNAVAILABLE = "unavailable"

NOT_UNDERSTOOD = gettext_lazy("The server did not understand that.")


def json_too_deep(text: str, limit: int) -> bool:
    """Whether the brackets of `text` (outside strings) nest deeper than `limit`."""
    if text.count("[") + text.count("{") <= limit:
        return False  # the common case, decided in C
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


class TokenBucket:
    """`capacity` tokens, refilled at `rate` per second; `take()` spends one if there is one."""

    __slots__ = ("capacity", "rate", "tokens", "updated")

    def __init__(self, rate: float, capacity: float, now: float | None = None) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.updated = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _message_type(text: str | None) -> str | None:
    try:
        kind = json_value(text or "").get("type")
    except (ValueError, AttributeError, RecursionError):
        return None
    return kind if isinstance(kind, str) else None


class WebSocketLimits:
    """A mixin for `AsyncWebsocketConsumer` (and its JSON subclass): see the module doc."""

    ws_closing: bool = False
    ws_gone: bool = False  # the client has left or the socket is closed: nothing more is sent
    ws_bucket: TokenBucket | None = None
    ws_strikes: int = 0

    async def send(self, *args: Any, **kwargs: Any) -> None:
        """Send, unless the client has gone. A client that leaves while it is being answered
        (daphne's protocol refuses the send) is not a failure of the consumer."""
        if self.ws_gone:
            return
        try:
            await super().send(*args, **kwargs)  # type: ignore[misc]
        except Disconnected:
            self.ws_gone = True

    async def send_json(self, content: Any, close: bool = False) -> None:
        # Channels' JSON consumer sends through `super().send`, which would pass over the
        # `send` above: the JSON consumers' replies go through it here.
        await self.send(text_data=await self.encode_json(content), close=close)  # type: ignore[attr-defined]

    async def close(self, *args: Any, **kwargs: Any) -> None:
        await super().close(*args, **kwargs)  # type: ignore[misc]
        self.ws_gone = True

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.ws_gone = True
        await super().websocket_disconnect(message)  # type: ignore[misc]

    @staticmethod
    def ws_max_frame_bytes() -> int:
        return int(settings.WS_MAX_FRAME_BYTES)

    def _ws_bucket(self) -> TokenBucket:
        if self.ws_bucket is None:
            self.ws_bucket = TokenBucket(
                rate=float(settings.WS_RATE_PER_SECOND),
                capacity=float(settings.WS_BURST),
            )
        return self.ws_bucket

    def ws_bucket_for(self, text: str | None) -> TokenBucket:
        """The bucket a frame is counted in: one per connection, unless a consumer keeps a
        kind of message apart (the match socket's chat, `games.play.chat.socket`)."""
        return self._ws_bucket()

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        if self.ws_closing:
            return  # closed for a flood or a huge frame: what was queued behind it is dropped
        text, data = message.get("text"), message.get("bytes")
        size = len(text) if text is not None else len(data or b"")
        if size > self.ws_max_frame_bytes():
            logger.info("websocket frame of %d bytes refused: closing", size)
            await self._ws_abuse(CLOSE_TOO_BIG)
            return
        if not self.ws_bucket_for(text).take():
            await self._ws_flood()
            return
        limit = int(settings.WS_MAX_JSON_DEPTH)
        if text is not None and json_too_deep(text, limit):
            await self._ws_refuse("bad_message", NOT_UNDERSTOOD)
            await self.ws_strike()
            return
        try:
            await super().websocket_receive(message)  # type: ignore[misc]
        except (DatabaseError, InterfaceError):
            logger.warning("database error while handling a websocket message", exc_info=True)
            await self._ws_refuse(
                UNAVAILABLE, gettext_lazy("The site is briefly unavailable. Try again."),
                about=_message_type(text),
            )

    async def _ws_refuse(self, code: str, words: Promise, about: str | None = None) -> None:
        """Refuse a frame or the socket: `words` (lazy) in the language of the connection's
        pages."""
        with translation.override(language_for_scope(self.scope)):  # type: ignore[attr-defined]
            detail = str(words)
        await self.send(  # type: ignore[attr-defined]
            text_data=json_text(
                {"type": "error", "code": code, "detail": detail, "for": about, "version": None}
            )
        )

    async def ws_strike(self) -> None:
        """Count a frame the server could not understand; close the socket at too many."""
        self.ws_strikes += 1
        if self.ws_strikes >= int(settings.WS_MAX_BAD_FRAMES) and not self.ws_closing:
            logger.info("websocket sent %d frames not understood: closing", self.ws_strikes)
            await self._ws_abuse(CLOSE_JUNK)

    async def _ws_flood(self) -> None:
        logger.info("websocket flood: closing")
        self.ws_closing = True
        await self._ws_refuse(RATE_LIMITED, gettext_lazy("Too many messages at once."))
        await self._ws_abuse(CLOSE_FLOOD)

    async def _ws_abuse(self, code: int) -> None:
        """Close for abuse: what is queued behind is dropped, the session cools down."""
        self.ws_closing = True
        await cooldown_start(scope=self.scope)  # type: ignore[attr-defined]
        await self.close(code=code)  # type: ignore[attr-defined]
