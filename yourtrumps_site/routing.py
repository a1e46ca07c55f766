"""Every WebSocket route of the site, gathered for the ASGI router."""

from django.urls import path

from yourtrumps_site.consumers import SiteConsumer

websocket_urlpatterns = [
    path("ws/site/", SiteConsumer.as_asgi()),
]
