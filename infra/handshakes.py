"""Refusing a WebSocket handshake from an ASGI layer, before any consumer runs."""

from __future__ import annotations

from typing import Any

# A close before the accept is daphne's HTTP 403. It carries no close code: daphne drops one
# while the handshake is pending, and if the handshake has just ended (daphne's handshake
# timeout) the close is sent as a WebSocket close, for which autobahn raises on a code of
# 1008.
REFUSAL: dict[str, Any] = {"type": "websocket.close"}


async def handshake_refuse(*, receive: Any, send: Any) -> None:
    """Wait for the client's `websocket.connect` and refuse it (a client that left first is
    let go)."""
    message = await receive()
    if message.get("type") == "websocket.connect":
        await send(REFUSAL)
