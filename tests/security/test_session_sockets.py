"""A socket outlives no log-in: log-out closes the sockets of that session, a password change,
a deletion or a deactivation by staff closes every socket of the user, on every server
(two daphne processes on Redis), on all three sockets (match, lobby, site). The other
session's sockets stay open after a log-out. The time from the request to the close is
printed (a figure, not an assertion: the machine is shared)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets
from django.test import Client

from accounts.services import user_deactivate
from games.play import services
from games.play.services import Player
from infra.session_sockets import CLOSE_SESSION_ENDED
from tests.load.client import connect
from tests.load.sessions import session_cookie
from tests.security.test_fuzz import server_errors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]


@pytest.fixture
def two_servers(start_asgi_server):
    return start_asgi_server(), start_asgi_server()


def logged_in_client(user) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, f"sessionid={client.cookies['sessionid'].value}"


async def open_sockets(servers, cookie: str, match_id: int) -> list:
    """A match, a lobby and a site socket on each server, each past its first message."""
    sockets = []
    for server in servers:
        for path in (f"/ws/match/{match_id}/", "/ws/lobby/", "/ws/site/"):
            ws = await connect(server.extra["url"], path, cookie)
            if "site" not in path:
                await asyncio.wait_for(ws.recv(), 10)
            sockets.append(ws)
    return sockets


async def closed_codes(sockets, timeout: float = 10) -> list[int | None]:
    async def code(ws):
        try:
            async with asyncio.timeout(timeout):
                async for text in ws:
                    message = json.loads(text)
                    if message.get("code") == "session_ended":
                        assert message["detail"]
        except TimeoutError:
            return None
        except websockets.exceptions.ConnectionClosed:
            pass
        return ws.close_code

    return list(await asyncio.gather(*(code(ws) for ws in sockets)))


def still_open(sockets) -> bool:
    return all(ws.close_code is None for ws in sockets)


def scenario(two_servers, make_user, end, *, other_session_survives: bool):
    user, opponent = make_user(), make_user()
    match = services.match_create(players=[Player(user=user), Player(user=opponent)],
                                  trumps="SH")
    client, cookie = logged_in_client(user)
    other_cookie = session_cookie(user)

    async def run():
        mine = await open_sockets(two_servers, cookie, match.pk)
        other = await open_sockets(two_servers, other_cookie, match.pk)
        started = time.monotonic()
        await asyncio.to_thread(end, client, user)
        codes = await closed_codes(mine)
        took = time.monotonic() - started
        await asyncio.sleep(0.5)
        other_open = still_open(other)
        other_codes = None if other_open else await closed_codes(other, 5)
        for ws in mine + other:
            await ws.close()
        return codes, took, other_open, other_codes

    codes, took, other_open, other_codes = asyncio.run(run())
    print(f"\n{end.__name__}: {len(codes)} sockets on 2 servers closed in {took * 1000:.0f} ms")
    assert codes == [CLOSE_SESSION_ENDED] * 6
    if other_session_survives:
        assert other_open
    else:
        assert other_codes == [CLOSE_SESSION_ENDED] * 6
    for server in two_servers:
        assert server_errors(server) == []


def log_out(client, user):
    assert client.post("/accounts/logout/").status_code == 302


def change_password(client, user):
    response = client.post("/accounts/settings/password/", {
        "old_password": "pw-Xk39-long", "new_password1": "An0ther-long-pass",
        "new_password2": "An0ther-long-pass"})
    assert response.status_code == 302


def delete_account(client, user):
    assert client.post("/accounts/settings/delete/",
                       {"current_password": "pw-Xk39-long"}).status_code == 302


def deactivate_by_staff(client, user):
    from accounts.models import User

    user_deactivate(users=User.objects.filter(pk=user.pk))


def test_log_out_closes_that_sessions_sockets_on_every_server(two_servers, make_user):
    scenario(two_servers, make_user, log_out, other_session_survives=True)


def test_a_password_change_closes_every_socket_of_the_user(two_servers, make_user):
    scenario(two_servers, make_user, change_password, other_session_survives=False)


def test_deactivation_by_staff_closes_every_socket_of_the_user(two_servers, make_user):
    scenario(two_servers, make_user, deactivate_by_staff, other_session_survives=False)


def test_deleting_the_account_closes_every_socket_of_the_user(two_servers, make_user):
    user = make_user()
    client, cookie = logged_in_client(user)
    other_cookie = session_cookie(user)

    async def run():
        sockets = []
        for server in two_servers:
            for path in ("/ws/lobby/", "/ws/site/"):
                for jar in (cookie, other_cookie):
                    sockets.append(await connect(server.extra["url"], path, jar))
        await asyncio.sleep(0.3)
        await asyncio.to_thread(delete_account, client, user)
        return await closed_codes(sockets)

    assert asyncio.run(run()) == [CLOSE_SESSION_ENDED] * 8
