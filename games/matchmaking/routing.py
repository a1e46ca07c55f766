"""The WebSocket route of matchmaking (gathered by `yourtrumps_site.routing`)."""

from django.urls import path

from games.matchmaking.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
