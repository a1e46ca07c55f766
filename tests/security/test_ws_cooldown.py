"""The cool-down gate holds a cooling session's handshake before refusing it
(`infra.ws_cooldown.CooldownGate`): the refusal comes after the hold or at the
cool-down's end, whichever is first; a client that leaves meanwhile is let go; past its
bound the gate refuses at once; nobody else waits. The ASGI tests talk to the gate as daphne
does; the last one is on a real daphne."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest
import websockets

from infra.handshakes import REFUSAL
from infra.ws_cooldown import CooldownGate, cooldown_start
from tests.load.client import connect
from tests.load.sessions import session_cookie
from tests.security.test_ws_limits import cool_down
from tests.support.asgi import Handshake, websocket_scope


def handshake_scope(settings, cookie: str) -> dict:
    return websocket_scope("/ws/site/", {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"})


async def passed_on(scope, receive, send):
    await send({"type": "websocket.accept"})


async def cooling_scope(settings, seconds: float) -> dict:
    settings.WS_ABUSE_COOLDOWN_SECONDS = seconds
    scope = handshake_scope(settings, secrets.token_hex(16))
    assert await cooldown_start(scope=scope)
    return scope


async def test_a_cooling_session_is_refused_after_the_hold(settings):
    settings.WS_REFUSAL_HOLD_SECONDS = 0.4
    scope = await cooling_scope(settings, 60)
    gate, client = CooldownGate(passed_on), Handshake()

    await gate(scope, client.receive, client.send)

    [(after, message)] = client.sent
    assert message == REFUSAL  # daphne answers it with 403
    assert after >= 0.4
    assert gate.held == 0


async def test_the_hold_ends_with_the_cool_down(settings):
    settings.WS_REFUSAL_HOLD_SECONDS = 30
    scope = await cooling_scope(settings, 0.3)
    client = Handshake()

    await asyncio.wait_for(CooldownGate(passed_on)(scope, client.receive, client.send), 5)

    [(after, message)] = client.sent
    assert message["type"] == "websocket.close"
    assert after < 5


async def test_a_client_that_leaves_while_held_is_let_go_without_an_answer(settings):
    settings.WS_REFUSAL_HOLD_SECONDS = 30
    scope = await cooling_scope(settings, 60)
    gate, client = CooldownGate(passed_on), Handshake()

    waiting = asyncio.create_task(gate(scope, client.receive, client.send))
    await asyncio.sleep(0.1)
    assert gate.held == 1
    client.leave()
    await asyncio.wait_for(waiting, 2)

    assert client.sent == []
    assert gate.held == 0


async def test_past_its_bound_the_gate_refuses_at_once(settings):
    settings.WS_REFUSAL_HOLD_SECONDS = 30
    scope = await cooling_scope(settings, 60)
    gate = CooldownGate(passed_on)
    gate.MAX_HELD = 3
    clients = [Handshake() for _ in range(5)]

    waiting = [asyncio.create_task(gate(scope, c.receive, c.send)) for c in clients]
    await asyncio.sleep(0.2)

    assert gate.held == 3
    assert sum(1 for c in clients if c.sent) == 2  # refused at once, not held
    for client in clients:
        client.leave()
    await asyncio.wait_for(asyncio.gather(*waiting), 2)
    assert gate.held == 0


async def test_a_session_without_a_cool_down_passes_at_once(settings):
    settings.WS_REFUSAL_HOLD_SECONDS = 30
    client = Handshake()

    await asyncio.wait_for(CooldownGate(passed_on)(
        handshake_scope(settings, secrets.token_hex(16)), client.receive, client.send), 1)

    assert client.messages == [{"type": "websocket.accept"}]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("sockets_settled")
def test_on_daphne_the_held_refusal_is_a_403_and_other_players_do_not_wait(
        start_asgi_server, make_user, settings):
    url = start_asgi_server(WS_REFUSAL_HOLD_SECONDS="1.5").extra["url"]
    cookie, honest = session_cookie(make_user()), session_cookie(make_user())

    async def knock() -> tuple[int, float, float]:
        started = time.monotonic()
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await connect(url, "/ws/site/", cookie)
        return refused.value.response.status_code, started, time.monotonic()

    async def honest_handshake() -> float:
        await asyncio.sleep(0.3)  # while the cooling session's knock is held
        connection = await connect(url, "/ws/site/", honest)
        await connection.close()
        return time.monotonic()

    async def scenario():
        await cool_down(url, cookie, settings.WS_MAX_BAD_FRAMES)
        return await asyncio.gather(knock(), honest_handshake())

    (status, knocked, refused), honest_opened = asyncio.run(scenario())

    assert status == 403
    assert refused - knocked >= 1.5
    assert honest_opened < refused  # let in while the other knock was held
