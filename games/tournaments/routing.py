"""The WebSocket route of the arenas (gathered by `yourtrumps_site.routing`)."""

from django.urls import path

from games.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<token:token>/", TournamentConsumer.as_asgi()),
]
