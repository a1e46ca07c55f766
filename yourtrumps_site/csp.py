"""The Content-Security-Policy of every page (django-csp): scripts, styles, images and fonts
only from the site's own origin, no inline script or style (data for a script travels in
`<script type="application/json">`, which is never run), no plugin, no framing, forms that
post only to the site, and connections (`fetch`, WebSocket) only to the site's own origin
and its WebSocket origin (`ws://` or `wss://` and the same host and port).

The policy's directives are the setting `CONTENT_SECURITY_POLICY`; this middleware adds the
WebSocket origin of each request, which depends on the host the page was asked under.
"""

from __future__ import annotations

from typing import Any

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest


def websocket_origin(request: HttpRequest) -> str | None:
    """The origin of this site's sockets as seen by the page of `request`."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'wss' if request.is_secure() else 'ws'}://{host}"


class SitePolicyMiddleware(CSPMiddleware):
    def get_policy_parts(self, request: HttpRequest, response: Any,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        origin = websocket_origin(request)
        if origin is not None:
            update = dict(parts.update or {})
            update["connect-src"] = [*update.get("connect-src", []), origin]
            parts.update = update
        return parts
