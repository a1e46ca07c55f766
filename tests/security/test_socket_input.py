"""No socket message or handshake gives a server error: generated messages of every type each
socket accepts (from its pydantic schema: every field, of its kind or not, text with NUL bytes
and control characters in it, fields left out and added) on the match socket (as a player and
a spectator), the lobby socket and the site socket of a real daphne; and generated handshake
paths (unknown routes, ids that are not sane numbers). The server never fails (no traceback in
its log, no close code 1011), and every reply is of a type the protocol has.

`FUZZ_SOCKET_MESSAGES` sets the number of messages per socket (default 300); the counts are
printed at the end of the run (`tests.security.tally`)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from games.matchmaking.schemas import lobby_message
from games.play import services
from games.play.schemas import client_message
from games.play.services import Player
from tests.load.sessions import session_cookie
from tests.security import tally
from tests.security.test_fuzz import server_errors
from tests.security.test_no_server_errors import hostile_text

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]

MESSAGES = int(os.environ.get("FUZZ_SOCKET_MESSAGES", "300"))
SITE_SCHEMA = {"oneOf": [{"properties": {"type": {"const": "announce"},
                                         "text": {"type": "string", "maxLength": 500}}}]}
REPLY_TYPES = {"error", "state", "ok", "lobby", "pools", "paired", "announcement",
               "notifications", "notification", "friends", "chat_history", "chat"}


def odd_value() -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                     hostile_text(), st.lists(st.integers(), max_size=3),
                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def value_of(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values for one property of a JSON schema: of its kind (inside and outside its bounds)
    or anything."""
    kinds: list[st.SearchStrategy[Any]] = [odd_value()]
    if "const" in schema:
        kinds.append(st.just(schema["const"]))
    if "enum" in schema:
        kinds.append(st.sampled_from(schema["enum"]))
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum", -(10**6)), schema.get("maximum", 10**6)
        kinds += [st.integers(low - 2, high + 2), st.integers(-(10**30), 10**30)]
    elif kind == "string":
        kinds.append(st.text(max_size=schema.get("maxLength", 50) + 2))
        # NUL bytes and control characters, alone or in text of the field's own kind.
        control = st.sampled_from(["\x00", "\x01", "\x1f", "\x7f", "\n"])
        kinds.append(st.tuples(st.text("aB3_-+/.dQH", max_size=8), control,
                               st.text("aB3_-+/.dQH", max_size=8)).map("".join))
    elif kind == "boolean":
        kinds.append(st.booleans())
    return st.one_of(kinds)


def messages_of(schema: dict[str, Any]) -> st.SearchStrategy[str | bytes]:
    """Frames for a socket whose messages this JSON schema describes."""
    defs = schema.get("$defs", {})
    variants = [defs[v["$ref"].split("/")[-1]] if "$ref" in v else v
                for v in schema.get("oneOf", [schema])]

    # Built once: building strategies at every draw costs more than sending the frames.
    properties_of = [{name: value_of(spec) for name, spec in variant.get("properties", {}).items()}
                     for variant in variants]
    odd_key, odd = st.text(max_size=8), odd_value()
    not_a_message = st.one_of(hostile_text(), st.binary(max_size=64))

    @st.composite
    def message(draw: Any) -> str | bytes:
        properties = draw(st.sampled_from(properties_of))
        fields = {name: draw(values) for name, values in properties.items()
                  if name == "type" or draw(st.integers(0, 5))}
        if draw(st.integers(0, 6)) == 0:
            fields[draw(odd_key)] = draw(odd)
        if draw(st.integers(0, 9)) == 0:
            return draw(not_a_message)
        return json.dumps(fields)

    return message()


def exchange(url: str, path: str, cookie: str, frames: st.SearchStrategy[str | bytes],
             examples: int) -> dict[str, int]:
    """Send generated frames, one at a time, reading the replies; reconnect when the server
    closes. Returns the close codes seen."""
    closes: dict[str, int] = {}
    link: dict[str, Any] = {}
    stack = contextlib.ExitStack()

    def opened() -> Any:
        if "ws" not in link:
            link["ws"] = stack.enter_context(connect(
                url.replace("http", "ws") + path, origin=url,
                additional_headers={"Cookie": cookie} if cookie else {},
                open_timeout=10, max_size=None))
            drain(link["ws"])
        return link["ws"]

    def drain(ws: Any) -> None:
        # A reply later than this is read, and checked, by the next frame's drain.
        while True:
            try:
                text = ws.recv(timeout=0.01)
            except TimeoutError:
                return
            reply = json.loads(text)
            assert reply.get("type") in REPLY_TYPES, reply

    @hypothesis_settings(max_examples=examples, suppress_health_check=list(HealthCheck),
                         database=None)
    @given(frames)
    def send(frame: str | bytes) -> None:
        ws = opened()
        tally.count("socket messages")
        try:
            ws.send(frame)
            drain(ws)
        except websockets.exceptions.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            closes[str(code)] = closes.get(str(code), 0) + 1
            link.pop("ws", None)
            assert code != 1011, "the consumer crashed"

    with stack:
        send()
    return closes


@pytest.fixture
def fuzz_server(start_asgi_server):
    return start_asgi_server(DJANGO_SETTINGS_MODULE="tests.security.fuzz_settings")


def test_generated_messages_on_every_socket_give_no_server_error(fuzz_server, make_user):
    players = [make_user(), make_user()]
    staff = make_user(is_staff=True)
    match = services.match_create(players=[Player(user=u) for u in players], trumps="SH",
                                  seed=3, dealer=0)
    url = fuzz_server.extra["url"]
    match_messages = messages_of(client_message.json_schema())
    sockets = [
        (f"/ws/match/{match.pk}/", session_cookie(players[0]), match_messages),
        (f"/ws/match/{match.pk}/", session_cookie(make_user()), match_messages),  # spectator
        ("/ws/lobby/", session_cookie(players[1]), messages_of(lobby_message.json_schema())),
        ("/ws/site/", session_cookie(staff), messages_of(SITE_SCHEMA)),
    ]
    closes = {}
    for path, cookie, frames in sockets:
        for code, count in exchange(url, path, cookie, frames, MESSAGES).items():
            closes[code] = closes.get(code, 0) + count
    errors = server_errors(fuzz_server)
    tally.failed("socket messages", len(errors))
    assert errors == []
    assert set(closes) <= {"4009"}, closes  # only a frame too big closes a socket


PATH_PARTS = ["ws", "match", "lobby", "site", "game", "", "..", "%00", "0", "-1", "9" * 19,
              "9" * 500, "²", "1.5", "x" * 300]


def test_generated_handshake_paths_fail_cleanly(asgi_server):
    from urllib.parse import quote

    url = asgi_server.extra["url"]

    @given(st.lists(st.one_of(st.sampled_from(PATH_PARTS), st.text(max_size=12)), max_size=5),
           st.booleans())
    @hypothesis_settings(max_examples=MESSAGES // 2, suppress_health_check=list(HealthCheck),
                         database=None)
    def handshake(parts, trailing):
        path = "/ws/" + "/".join(quote(p, safe="") for p in parts) + ("/" if trailing else "")
        tally.count("socket handshakes")
        status, code = None, None
        try:
            with connect(url.replace("http", "ws") + path, origin=url, open_timeout=10) as ws:
                ws.recv(timeout=2)  # a route that exists answers (no such match: 4404)
        except websockets.exceptions.InvalidStatus as refused:
            status = refused.response.status_code
        except websockets.exceptions.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            pass  # an open socket with nothing to say (the site socket)
        assert status in (None, 403), path  # refused cleanly, never a 500
        assert code != 1011, path

    handshake()
    for path in ["/ws/nope/", f"/ws/match/{'9' * 40}/", "/ws/match/²/", "/ws/match/-1/",
                 "/nothing"]:
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused, connect(
            url.replace("http", "ws") + path, origin=url, open_timeout=10
        ):
            pass
        assert refused.value.response.status_code == 403
    assert server_errors(asgi_server) == []


def test_a_player_socket_whose_match_is_deleted_closes_cleanly(asgi_server, make_user):
    from games.models import Match

    players = [make_user(), make_user()]
    match = services.match_create(players=[Player(user=p) for p in players], trumps="SH")
    url = asgi_server.extra["url"].replace("http", "ws") + f"/ws/match/{match.pk}/"
    with connect(url, origin=asgi_server.extra["url"], open_timeout=10,
                 additional_headers={"Cookie": session_cookie(players[0])}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        Match.objects.filter(pk=match.pk).delete()
    # The server marks the seat away when the socket goes: by then the match is gone.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and f"WSDISCONNECT /ws/match/{match.pk}/" not in (
            asgi_server.log_path.read_text()):
        time.sleep(0.1)
    time.sleep(5)  # the disconnect handler's database call, on a loaded machine
    assert server_errors(asgi_server) == []
