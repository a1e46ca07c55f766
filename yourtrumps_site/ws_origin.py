"""The WebSocket origin check: the same rule as Django's CSRF check of a POST's `Origin`.

A browser sends `Origin` with every WebSocket handshake, and a socket carries the session
cookie, so a page of another site must not open one. The handshake is accepted when its
`Origin` is exactly the site's own origin as Django sees the request (scheme, host and port:
`https` when `request.is_secure()`, which honours `SECURE_PROXY_SSL_HEADER`; the host of
`request.get_host()`, which must be in `ALLOWED_HOSTS`), or one of `CSRF_TRUSTED_ORIGINS`
(exactly, or a subdomain where it has a `*`). A handshake without `Origin`, or from any other
origin (another port or scheme of an allowed host included), is refused with HTTP 403 before
any consumer runs. Channels' `AllowedHostsOriginValidator` compared host names only.
"""

from __future__ import annotations

import io
import logging
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

from infra.handshakes import handshake_refuse

logger = logging.getLogger(__name__)

_HTTP_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def request_of_handshake(scope: dict[str, Any]) -> ASGIRequest:
    """The handshake as Django's request (headers, host, scheme) for Django's own checks."""
    http_scope = {
        **scope,
        "type": "http",
        "method": "GET",
        "scheme": _HTTP_SCHEME.get(str(scope.get("scheme") or "ws"), "http"),
    }
    return ASGIRequest(http_scope, io.BytesIO())


def origin_allowed(request: Any, origin: str) -> bool:
    """Whether `origin` may act on this site: the rule of Django's `CsrfViewMiddleware`."""
    try:
        own = f"{'https' if request.is_secure() else 'http'}://{request.get_host()}"
    except DisallowedHost:
        own = None
    if origin == own:
        return True
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in {entry for entry in trusted if "*" not in entry}:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        is_same_domain(parsed.netloc, allowed.netloc.lstrip("*"))
        for allowed in (urlsplit(entry) for entry in trusted if "*" in entry)
        if allowed.scheme == parsed.scheme
    )


class OriginValidator:
    """ASGI middleware before each WebSocket route's consumer: refuse a handshake whose
    origin may not act on the site (see the module doc)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            origin = next((value.decode("latin1") for name, value in scope.get("headers", [])
                           if name == b"origin"), None)
            if origin is None or not origin_allowed(request_of_handshake(scope), origin):
                logger.info("websocket from origin %r refused", (origin or "")[:200])
                return await handshake_refuse(receive=receive, send=send)
        return await self.application(scope, receive, send)

