"""The WebSocket routes of play (gathered by `yourtrumps_site.routing`)."""

from django.urls import path

from games.play.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/match/<id:match_id>/", MatchConsumer.as_asgi()),
]
