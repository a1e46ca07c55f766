"""Every WebSocket route of the site, and the stack a handshake goes through
(`websocket_application`).

The cool-down of a session closed for abuse comes first (`infra.ws_cooldown`),
then the path is matched: the origin check (`yourtrumps_site.ws_origin`) and the session's
user (Channels' cookie middleware and `infra.session_user`, which reads the user on the
database threads) wrap each route's consumer, so that a path which
matches no route is refused without either (`infra.sockets.no_such_route`).
"""

from typing import Any

from channels.routing import URLRouter
from channels.sessions import CookieMiddleware
from django.urls import URLPattern, path, re_path

from games.matchmaking.routing import websocket_urlpatterns as matchmaking_websocket_urlpatterns
from games.play.routing import websocket_urlpatterns as games_websocket_urlpatterns
from games.tournaments.routing import websocket_urlpatterns as tournament_websocket_urlpatterns
from infra.session_user import SessionUserMiddleware
from infra.sockets import no_such_route
from infra.ws_cooldown import CooldownGate
from yourtrumps_site.consumers import SiteConsumer
from yourtrumps_site.ws_origin import OriginValidator


def _signed_in(consumer: Any) -> Any:
    """A consumer behind the origin check and with the session's user in its scope."""
    return OriginValidator(CookieMiddleware(SessionUserMiddleware(consumer)))


def _each_signed_in(patterns: list[URLPattern]) -> list[URLPattern]:
    return [URLPattern(p.pattern, _signed_in(p.callback), p.default_args, p.name)
            for p in patterns]


websocket_urlpatterns = [
    *_each_signed_in([
        path("ws/site/", SiteConsumer.as_asgi()),
        *games_websocket_urlpatterns,
        *matchmaking_websocket_urlpatterns,
        *tournament_websocket_urlpatterns,
    ]),
    re_path(r"", no_such_route),  # last: whatever matched nothing above
]

# The cool-down first, then the route: a refused session's knocks and unknown paths cost no
# origin check, session or user.
websocket_application = CooldownGate(URLRouter(websocket_urlpatterns))
