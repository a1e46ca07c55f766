"""The WebSocket stack (`yourtrumps_site.routing.websocket_application`): the path is matched
before the origin check and the session's user, so a path that matches no route is refused
without either; a known route still checks the origin. In this process, as daphne hands the
handshake over."""

from __future__ import annotations

import logging

import pytest

from tests.support.asgi import Handshake, websocket_scope
from yourtrumps_site.routing import websocket_application

FOREIGN = {"Origin": "http://evil.example", "Host": "127.0.0.1"}
REFUSED = {"type": "websocket.close"}  # daphne: HTTP 403


async def foreign_handshake(path: str, caplog) -> tuple[list[dict], list[str]]:
    """What the stack sends to a handshake from another site's page, and who logged."""
    client = Handshake()
    with caplog.at_level(logging.INFO):
        await websocket_application(websocket_scope(path, FOREIGN), client.receive,
                                    client.send)
    return client.messages, [record.name for record in caplog.records]


@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/match/²/", "/ws/match/-1/",
                                  "/ws/match/99999999999999999999999/", "/ws/"])
async def test_a_path_that_matches_no_route_is_refused_before_the_origin_check(path, caplog):
    messages, loggers = await foreign_handshake(path, caplog)

    assert messages == [REFUSED]
    assert loggers == ["infra.sockets"]


@pytest.mark.parametrize("path", ["/ws/site/", "/ws/lobby/", "/ws/match/12/"])
async def test_a_known_route_still_checks_the_origin(path, caplog):
    messages, loggers = await foreign_handshake(path, caplog)

    assert messages == [REFUSED]
    assert loggers == ["yourtrumps_site.ws_origin"]
