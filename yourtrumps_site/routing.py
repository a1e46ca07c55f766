"""Every WebSocket route of the site, gathered for the ASGI router."""

from django.urls import path, re_path

from games.matchmaking.routing import websocket_urlpatterns as matchmaking_websocket_urlpatterns
from games.play.routing import websocket_urlpatterns as games_websocket_urlpatterns
from yourtrumps_site.consumers import SiteConsumer
from yourtrumps_site.sockets import NoSuchRoute

websocket_urlpatterns = [
    path("ws/site/", SiteConsumer.as_asgi()),
    *games_websocket_urlpatterns,
    *matchmaking_websocket_urlpatterns,
    re_path(r"", NoSuchRoute.as_asgi()),  # last: whatever matched nothing above
]
