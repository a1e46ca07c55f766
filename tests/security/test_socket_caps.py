"""Sockets per user and per address (`infra.socket_caps`) on real servers, and the
WebSocket origin rule (`yourtrumps_site.ws_origin`), which must be Django's CSRF rule.

A player with a few tabs is never refused; past the cap a new socket gets a typed error and
close code 4013, the open ones stay; the count holds across two servers and frees a place
when a socket closes."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
import websockets
from django.middleware.csrf import CsrfViewMiddleware
from django.test import RequestFactory, override_settings
from hypothesis import given
from hypothesis import strategies as st

from infra.socket_caps import CLOSE_TOO_MANY_SOCKETS, TOO_MANY_SOCKETS
from tests.load.client import connect
from tests.load.sessions import session_cookie
from tests.security.test_fuzz import server_errors
from yourtrumps_site.ws_origin import origin_allowed, request_of_handshake

CAP = 4


@pytest.fixture
def capped_servers(start_asgi_server):
    # Counts of their own (a key prefix of their own): other tests' sockets do not count.
    caps = {"WS_MAX_SOCKETS_PER_USER": str(CAP), "WS_MAX_SOCKETS_PER_ADDRESS": str(3 * CAP),
            "CACHE_KEY_PREFIX": f"yt-caps-{uuid.uuid4().hex[:8]}"}
    return start_asgi_server(**caps), start_asgi_server(**caps)


async def refusal(ws) -> tuple[dict, int | None]:
    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
    with pytest.raises(websockets.exceptions.ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    return message, ws.close_code


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("sockets_settled")
def test_sockets_past_the_cap_per_user_are_refused_on_every_server(capped_servers,
                                                                  make_user):
    first, second = (server.extra["url"] for server in capped_servers)
    cookie = session_cookie(make_user())

    async def scenario():
        # A few tabs' worth, split over the two servers: all open.
        held = [await connect(url, "/ws/site/", cookie) for url in (first, second) * (CAP // 2)]
        await asyncio.sleep(0.3)
        assert all(ws.close_code is None for ws in held)
        refused = await connect(second, "/ws/site/", cookie)
        message, code = await refusal(refused)
        # Another kind of socket counts apart; a place frees when a socket closes.
        lobby = await connect(first, "/ws/lobby/", cookie)
        assert json.loads(await asyncio.wait_for(lobby.recv(), 10))["type"] == "lobby"
        await held[0].close()
        await asyncio.sleep(0.3)
        again = await connect(first, "/ws/site/", cookie)
        await asyncio.sleep(0.3)
        still_open = again.close_code is None and all(ws.close_code is None for ws in held[1:])
        for ws in [*held, again, lobby]:
            await ws.close()
        return message, code, still_open

    message, code, still_open = asyncio.run(scenario())
    assert code == CLOSE_TOO_MANY_SOCKETS
    assert message["type"] == "error"
    assert message["code"] == TOO_MANY_SOCKETS
    assert "Too many open connections" in message["detail"]
    assert still_open
    for server in capped_servers:
        assert server_errors(server) == []


@pytest.mark.django_db(transaction=True)
def test_sockets_past_the_cap_per_address_are_refused(capped_servers):
    url = capped_servers[0].extra["url"]

    async def scenario():
        held = [await connect(url, "/ws/site/") for _ in range(3 * CAP)]  # guests
        refused = await connect(url, "/ws/site/")
        result = await refusal(refused)
        for ws in held:
            await ws.close()
        return result

    message, code = asyncio.run(scenario())
    assert code == CLOSE_TOO_MANY_SOCKETS
    assert "your network" in message["detail"]


# --- the origin rule -------------------------------------------------------------------------

HOSTS = ["site.example", "site.example:8443", "other.example", "sub.site.example", "127.0.0.1"]
ORIGINS = st.one_of(
    st.builds(lambda scheme, host: f"{scheme}://{host}", st.sampled_from(["http", "https",
                                                                         "ws", "ftp"]),
              st.sampled_from([*HOSTS, "site.example:80", "site.example:443", "SITE.example",
                               "evil.site.example", "site.example.evil"])),
    st.sampled_from(["null", "", "http://", "https://site.example/", "site.example"]),
    st.text(max_size=20),
)


@override_settings(ALLOWED_HOSTS=["site.example", ".site.example", "127.0.0.1"],
                   CSRF_TRUSTED_ORIGINS=["https://trusted.example", "https://*.site.example"])
@given(origin=ORIGINS, host=st.sampled_from(HOSTS), secure=st.booleans())
def test_a_socket_origin_is_judged_as_csrf_judges_a_posts(origin, host, secure):
    """The same origin, host and scheme: the socket check and Django's CSRF check agree."""
    post = RequestFactory().post("/", HTTP_ORIGIN=origin, HTTP_HOST=host, secure=secure)
    csrf = CsrfViewMiddleware(lambda request: None)
    scope = {"type": "websocket", "path": "/ws/site/", "scheme": "wss" if secure else "ws",
             "headers": [(b"host", host.encode()), (b"origin", origin.encode())],
             "server": ("127.0.0.1", 80)}
    assert origin_allowed(request_of_handshake(scope), origin) == csrf._origin_verified(post)


def test_another_port_or_scheme_of_an_allowed_host_is_refused(asgi_server):
    url = asgi_server.extra["url"]  # http://127.0.0.1:PORT
    port = int(url.rsplit(":", 1)[1])
    for origin in [f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}",
                   "http://127.0.0.1", f"http://localhost:{port}"]:
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            asyncio.run(connect(url, "/ws/site/", origin=origin))
        assert refused.value.response.status_code == 403, origin

    async def own_origin():
        ws = await connect(url, "/ws/site/", origin=url)
        await ws.close()

    asyncio.run(own_origin())
