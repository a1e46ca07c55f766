"""Hostile input on the match and site sockets of a real daphne: thousands of random and
malformed frames (bad JSON, wrong types, deep nesting, huge frames, unknown types, binary
frames, floods). The server never fails (no traceback in its log, no close code 1011), nothing
in the match changes, every reply is a typed error (or the state a `sync` asks for), and a
flood closes the connection.

The number of frames is `FUZZ_FRAMES` (default 2000; more with `FUZZ_FRAMES=20000`); the
test prints the count it sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random

import pytest
import websockets

from games.play import services
from games.play.models import Match, Move, Seat
from games.play.services import Player
from infra.ws_limits import CLOSE_JUNK, CLOSE_TOO_BIG
from tests.load.client import connect
from tests.load.hostile import hostile_frame
from tests.load.sessions import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]

FRAMES = int(os.environ.get("FUZZ_FRAMES", "2000"))
def snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    seats = list(Seat.objects.filter(match=match).order_by("index")
                 .values_list("clock_ms", "trump", "result"))
    # Not the version: opening and closing a player's socket bumps it (presence), by design.
    return (match.ply, match.position_tpn, match.status, match.result,
            match.draw_offer_seat, match.rematch_offer_seat, seats,
            Move.objects.filter(match=match).count())


def server_errors(server) -> list[str]:
    """The errors in the server's log since the test began: a server of the test's own, its
    whole log; the session's shared one, from where it stood then (`conftest.py`)."""
    with server.log_path.open("rb") as log:
        log.seek(getattr(server, "test_log_mark", 0))
        text = log.read().decode(errors="replace")
    return [line for line in text.splitlines()
            if "Traceback" in line or " ERROR " in line or "Exception" in line]


async def pour(url: str, path: str, cookie: str, frames: list[str | bytes]) -> dict:
    """Send the frames with at most `WINDOW` unanswered, reading every reply; reconnect
    whenever the server closes the connection (a huge frame)."""
    tally = {"sent": 0, "replies": 0, "types": {}, "codes": {}, "closes": {}, "stalls": 0}
    window = 20

    class Link:
        def __init__(self, connection) -> None:
            self.connection = connection
            self.sent = self.replies = 0
            self.news = asyncio.Event()
            self.task = asyncio.create_task(self.read())

        async def read(self) -> None:
            try:
                async for text in self.connection:
                    message = json.loads(text)
                    self.replies += 1
                    tally["replies"] += 1
                    kind = message["type"]
                    tally["types"][kind] = tally["types"].get(kind, 0) + 1
                    if kind == "error":
                        tally["codes"][message["code"]] = tally["codes"].get(message["code"],
                                                                             0) + 1
                    self.news.set()
            except websockets.exceptions.ConnectionClosed:
                pass
            code = self.connection.close_code
            tally["closes"][code] = tally["closes"].get(code, 0) + 1
            self.news.set()

    async def open_link() -> Link:
        return Link(await connect(url, path, cookie, max_size=None))

    link = await open_link()
    for frame in frames:
        while link.sent - link.replies >= window and not link.task.done():
            link.news.clear()
            try:
                await asyncio.wait_for(link.news.wait(), 10)
            except TimeoutError:
                tally["stalls"] += 1
                break
        if link.task.done():
            link = await open_link()
        try:
            await link.connection.send(frame)
            link.sent += 1
            tally["sent"] += 1
        except websockets.exceptions.ConnectionClosed:
            await link.task
            link = await open_link()
    deadline = asyncio.get_running_loop().time() + 10
    while link.replies < link.sent and not link.task.done():
        link.news.clear()
        if asyncio.get_running_loop().time() > deadline:
            tally["stalls"] += 1
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(link.news.wait(), 1)
    await link.connection.close()
    await link.task
    return tally


@pytest.fixture
def fuzz_server(start_asgi_server):
    return start_asgi_server(DJANGO_SETTINGS_MODULE="tests.security.fuzz_settings")


def test_thousands_of_hostile_frames_cause_no_server_error_and_change_nothing(
    fuzz_server, make_user
):
    players = [make_user(), make_user()]
    match = services.match_create(players=[Player(user=u) for u in players], trumps="SH",
                                  seed=5, dealer=1)
    cookies = [session_cookie(players[0]), session_cookie(players[1]), ""]
    staff = session_cookie(make_user(is_staff=False))
    before = snapshot(match.pk)
    rng = random.Random(2026)
    url = fuzz_server.extra["url"]
    share = FRAMES // 4
    jobs = [(f"/ws/match/{match.pk}/", cookie, [hostile_frame(rng, match.ply)
                                                for _ in range(share)]) for cookie in cookies]
    jobs.append(("/ws/site/", staff, [hostile_frame(rng, 0) for _ in range(FRAMES - 3 * share)]))

    async def scenario():
        return await asyncio.gather(*(pour(url, path, c, f) for path, c, f in jobs))

    tallies = asyncio.run(scenario())

    sent = sum(t["sent"] for t in tallies)
    codes: dict[str, int] = {}
    closes: dict[int, int] = {}
    for tally in tallies:
        for code, count in tally["codes"].items():
            codes[code] = codes.get(code, 0) + count
        for code, count in tally["closes"].items():
            closes[code] = closes.get(code, 0) + count
        # The site socket of a signed-in player first sends their notifications and friends;
        # the match socket its chat room's history after the state.
        assert set(tally["types"]) <= {"error", "state", "notifications", "friends",
                                       "chat_history"}, tally["types"]
    print(f"\nfuzz: {sent} hostile frames sent, {sum(t['replies'] for t in tallies)} replies, "
          f"error codes {codes}, closes {closes}")
    assert sent >= FRAMES * 0.95
    # Only a huge frame closes (or the client's own close, 1000): never 1011, a crashed consumer.
    assert set(closes) <= {CLOSE_TOO_BIG, 1000}, closes
    assert sum(t["stalls"] for t in tallies) == 0  # every frame was answered in time
    assert set(codes) <= {"bad_message", "stale_ply", "not_a_player", "bad_json",
                          "unknown_type", "forbidden", "invalid"}, codes
    assert server_errors(fuzz_server) == []
    assert fuzz_server.alive
    assert snapshot(match.pk) == before


def test_a_flood_of_garbage_closes_the_connection(asgi_server, make_user):
    player = make_user()
    match = services.match_create(players=[Player(user=player), Player(user=make_user())],
                                  trumps="SH")
    cookie = session_cookie(player)
    before = snapshot(match.pk)
    rng = random.Random(7)
    frames = [hostile_frame(rng, 0) for _ in range(600)]
    frames = [f for f in frames if len(f) < 2000]
    url = asgi_server.extra["url"]

    async def scenario():
        connection = await connect(url, f"/ws/match/{match.pk}/", cookie)
        try:
            for frame in frames:
                await connection.send(frame)
            async for _text in connection:
                pass
        except websockets.exceptions.ConnectionClosed:
            pass
        return connection.close_code

    # Its tenth frame the server cannot understand closes it, before the rate limit would.
    assert asyncio.run(scenario()) == CLOSE_JUNK
    assert snapshot(match.pk) == before
    assert server_errors(asgi_server) == []
