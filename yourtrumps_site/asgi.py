"""The ASGI entry point: HTTP to Django, WebSockets to the Channels consumers.

WebSockets pass the cool-down of sessions closed for abuse (`infra.ws_cooldown`),
then the router: a path that matches no route is refused at the handshake
(`infra.sockets`); a route's consumer is behind the origin check of HTTP's CSRF
check (`yourtrumps_site.ws_origin`: no cross-site socket can act as a logged-in user) and the
session authentication that HTTP uses (`yourtrumps_site.routing.websocket_application`).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from games.play import deadline_watch  # noqa: E402
from infra import gc_pacing  # noqa: E402
from yourtrumps_site.routing import websocket_application  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": websocket_application,
    }
)

# Where Celery is eager (the embedded default) there is no worker to watch the clocks'
# deadlines (flags, trump-choice timeouts): this process does.
deadline_watch.start_if_no_worker()

# Python's whole garbage collection walks every object the process holds: with Django and
# Channels loaded and 400 sockets open it stopped the server for 60-370 ms every few seconds.
# What is loaded by now lives as long as the process, so it is frozen out of the collector's
# walks; what the sockets make is freed by reference counting, and what forms cycles is
# collected in rare whole collections (`infra.gc_pacing`).
gc.collect()
gc.freeze()
gc_pacing.start()
