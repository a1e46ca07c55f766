"""Per-connection limits of the WebSocket consumers (`infra.ws_limits`), on a real
daphne: a huge frame or a flood closes the connection with a clear code; a normal pace is
never limited."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
import websockets

from games.play import services
from games.play.services import Player
from infra.ws_cooldown import _key
from infra.ws_limits import CLOSE_FLOOD, CLOSE_JUNK, CLOSE_TOO_BIG, TokenBucket
from tests.load.client import MatchClient, connect
from tests.load.sessions import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]


def test_the_token_bucket_allows_a_burst_then_the_rate():
    bucket = TokenBucket(rate=2, capacity=3, now=0.0)

    assert [bucket.take(now=0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(now=0.5) is True  # one token back after half a second at 2/s
    assert bucket.take(now=0.5) is False
    assert sum(bucket.take(now=100.0) for _ in range(10)) == 3  # never more than the burst


@pytest.fixture
def duel(make_user):
    return services.match_create(
        players=[Player(user=make_user()), Player(user=make_user())], seed=3, dealer=1,
        trumps="SH",
    )


async def drain_until_closed(connection, timeout: float = 15) -> list[dict]:
    received = []
    try:
        while True:
            received.append(json.loads(await asyncio.wait_for(connection.recv(), timeout)))
    except websockets.exceptions.ConnectionClosed:
        return received


def test_a_huge_frame_closes_the_match_socket_with_4009(asgi_server, duel):
    url = asgi_server.extra["url"]

    async def scenario():
        client = await MatchClient.open(url, duel.pk)
        await client.send(json.dumps({"type": "sync", "pad": "x" * 100_000}))
        await drain_until_closed(client.connection)
        return client.connection.close_code

    assert asyncio.run(scenario()) == CLOSE_TOO_BIG


def test_a_flood_gets_one_rate_limited_error_and_closes_the_socket_with_4429(asgi_server, duel):
    url = asgi_server.extra["url"]

    async def scenario():
        client = await MatchClient.open(url, duel.pk)
        for _ in range(300):
            await client.send({"type": "sync"})
        received = await drain_until_closed(client.connection)
        return client.connection.close_code, received

    code, received = asyncio.run(scenario())

    assert code == CLOSE_FLOOD
    errors = [m for m in received if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["rate_limited"]
    assert len(received) < 300  # what was queued behind the flood was dropped unread


def test_the_site_socket_is_limited_too(asgi_server):
    url = asgi_server.extra["url"]

    async def scenario():
        connection = await connect(url, "/ws/site/")
        for _ in range(300):  # understood, refused (only the staff announce): not junk
            await connection.send(json.dumps({"type": "announce", "text": "hello"}))
        await drain_until_closed(connection)
        return connection.close_code

    assert asyncio.run(scenario()) == CLOSE_FLOOD


def test_a_normal_pace_is_never_limited(asgi_server, duel):
    url = asgi_server.extra["url"]

    async def scenario():
        client = await MatchClient.open(url, duel.pk)
        states = 0
        for _ in range(30):  # a burst of 30, then 20 more at 20 per second
            await client.send({"type": "sync"})
        for _ in range(20):
            await asyncio.sleep(0.05)
            await client.send({"type": "sync"})
        while states < 50:
            message = await client.recv()
            if message["type"] == "chat_history":  # the game chat's, once after the state
                continue
            assert message["type"] == "state", message
            states += 1
        await client.close()
        return states

    assert asyncio.run(scenario()) == 50


def test_json_nesting_is_measured_outside_strings():
    from infra.ws_limits import json_too_deep

    assert not json_too_deep('{"type": "sync"}', 3)
    assert not json_too_deep('{"a": "[[[[[[[[[[[[[[[["}', 3)
    assert not json_too_deep('{"a": "\\"[[[[[[[[[[[[[["}', 3)
    assert json_too_deep("[" * 5, 3)
    assert json_too_deep('{"a": [[{"b": []}]]}', 3)
    assert not json_too_deep("[[]]" * 50, 3)


async def test_a_reply_to_a_client_that_has_left_is_dropped_not_a_server_error():
    """Daphne refuses a send on a protocol that has closed (autobahn's `Disconnected`); a client
    that sends junk and leaves at once must not make the consumer fail with a traceback, also
    when the reply goes through the JSON consumer's `send_json`."""
    from autobahn.exception import Disconnected

    from yourtrumps_site.consumers import SiteConsumer

    async def closed_protocol(message):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer = SiteConsumer()
    consumer.scope = {"type": "websocket", "path": "/ws/site/", "headers": [], "user": None}
    consumer.base_send = closed_protocol

    await consumer.receive(text_data="not json")  # refused with an error frame that cannot go out

    assert consumer.ws_gone is True
    await consumer.send_json({"type": "error"})  # and nothing more is attempted


def test_junk_closes_the_socket_with_4008_and_cools_the_session_down(asgi_server, duel,
                                                                      make_user, settings):
    """Frames the server cannot understand close the socket after `WS_MAX_BAD_FRAMES`, and the
    session may not open another socket for a while; a message understood and refused is not
    junk, and another session of the same address is not touched."""
    url = asgi_server.extra["url"]
    junk = ["not json", "[1, 2]", json.dumps({"type": "dance"}), json.dumps({"type": "move"})]
    cookie, other = session_cookie(make_user()), session_cookie(make_user())

    async def scenario():
        client = await MatchClient.open(url, duel.pk, cookie)
        for _ in range(30):  # refused (a spectator's move), not for its form
            await client.send({"type": "move", "move": "6S", "ply": 99})
        for index in range(40):
            await client.send(junk[index % len(junk)])
        received = await drain_until_closed(client.connection)
        closed = client.connection.close_code
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await connect(url, f"/ws/match/{duel.pk}/", cookie)
        bystander = await MatchClient.open(url, duel.pk, other)  # opened: it has its state
        state = bystander.state
        await bystander.close()
        return closed, received, refused.value.response.status_code, state

    closed, received, status, state = asyncio.run(scenario())

    assert closed == CLOSE_JUNK
    codes = [m["code"] for m in received if m["type"] == "error"]
    assert codes.count("bad_message") == settings.WS_MAX_BAD_FRAMES
    assert len(codes) == 30 + settings.WS_MAX_BAD_FRAMES  # nothing answered after the close
    assert status == 403
    assert state["type"] == "state"


def test_a_flood_cools_the_session_down_and_the_cool_down_ends(start_asgi_server, duel,
                                                               make_user):
    url = start_asgi_server(WS_ABUSE_COOLDOWN_SECONDS="2").extra["url"]
    cookie = session_cookie(make_user())

    async def scenario():
        client = await MatchClient.open(url, duel.pk, cookie)
        for _ in range(300):
            await client.send({"type": "sync"})
        await drain_until_closed(client.connection)
        with pytest.raises(websockets.exceptions.InvalidStatus):
            await connect(url, "/ws/site/", cookie)
        await asyncio.sleep(2.5)
        again = await connect(url, "/ws/site/", cookie)
        await again.close()
        return client.connection.close_code

    assert asyncio.run(scenario()) == CLOSE_FLOOD


async def cool_down(url: str, cookie: str, bad_frames: int) -> int | None:
    """Send junk on a site socket until the server closes it; its close code."""
    connection = await connect(url, "/ws/site/", cookie)
    for _ in range(bad_frames):
        await connection.send("not json")
    await drain_until_closed(connection)
    return connection.close_code


class RedisCommandsAbout:
    """Counts the commands the Redis server runs that name `text` (a key), from MONITOR."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.count = 0
        self.stopped = threading.Event()
        self.ready = threading.Event()

    def _watch(self) -> None:
        import redis
        from django.conf import settings

        with redis.Redis.from_url(settings.REDIS_URL).monitor() as monitor:
            self.ready.set()
            for command in monitor.listen():
                if self.stopped.is_set():
                    return
                if self.text in command["command"]:
                    self.count += 1

    def __enter__(self) -> RedisCommandsAbout:
        threading.Thread(target=self._watch, daemon=True).start()
        self.ready.wait(5)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()


def test_a_cool_down_holds_in_every_process_and_costs_each_one_read(start_asgi_server,
                                                                      make_user, settings):
    """A session cooled on one server is refused by another, which asks Redis once and then
    remembers; the sessions of other players, on the same address, are let in on both."""
    first, second = (start_asgi_server().extra["url"] for _ in range(2))
    cookie, honest = session_cookie(make_user()), session_cookie(make_user())

    async def scenario():
        closed = await cool_down(first, cookie, settings.WS_MAX_BAD_FRAMES)
        statuses = []
        with RedisCommandsAbout(_key(cookie.split("=", 1)[1])) as reads:
            for url in [second] * 20 + [first] * 20:
                with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                    await connect(url, "/ws/site/", cookie)
                statuses.append(refused.value.response.status_code)
            await asyncio.sleep(0.5)  # MONITOR's stream may lag behind the commands
        for url in (first, second):
            bystander = await connect(url, "/ws/site/", honest)
            await bystander.close()
        return closed, statuses, reads.count

    closed, statuses, reads = asyncio.run(scenario())

    assert closed == CLOSE_JUNK
    assert statuses == [403] * 40
    assert reads == 1  # the second server's first look; the first one knew it already


def test_a_cooling_session_is_refused_before_the_origin_check(start_asgi_server, make_user,
                                                             settings, process_logs):
    """The cool-down is the first layer: a cooling session's handshake from a foreign origin
    is refused without being judged (the origin check logs each refusal it makes)."""
    server = start_asgi_server(LOG_LEVEL="INFO")
    url = server.extra["url"]
    cookie = session_cookie(make_user())

    async def scenario():
        await cool_down(url, cookie, settings.WS_MAX_BAD_FRAMES)
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await connect(url, "/ws/site/", cookie, origin="http://evil.example")
        with pytest.raises(websockets.exceptions.InvalidStatus):
            await connect(url, "/ws/site/", "", origin="http://evil.example")
        return refused.value.response.status_code

    assert asyncio.run(scenario()) == 403
    log = server.log_path.read_text()
    assert log.count("websocket from origin 'http://evil.example' refused") == 1


async def test_a_burst_of_handshakes_all_see_the_cool_down(settings):
    """More handshakes at once than the process has Redis connections: they wait their turn
    for one, and none of them is let in for want of one."""
    import secrets

    from infra.loop_redis import POOL_SIZE, loop_redis
    from infra.ws_cooldown import cooldown_left

    cookie = secrets.token_hex(16)
    await loop_redis().set(_key(cookie), 1, px=60_000)  # as another process would
    scope = {"type": "websocket",
             "headers": [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]}

    seen = await asyncio.gather(*(cooldown_left(scope=scope) for _ in range(10 * POOL_SIZE + 200)))

    assert all(seen)
