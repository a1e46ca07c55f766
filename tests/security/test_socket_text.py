"""Every text field a socket takes is held to its kind as the HTTP paths are: a NUL byte, a
control character, a letter of another script or an over-long value is refused as a bad
message, before any service or query (PostgreSQL refuses a NUL byte in a string with an
error, which must never be how the site finds out)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from pydantic import ValidationError

from games.matchmaking.schemas import lobby_message
from games.play.schemas import client_message
from tests.games.sockets import session_cookie_for
from tests.security.test_fuzz import server_errors

# A message of each kind with a text field, that field filled as a client would fill it.
TEXT_FIELDS: list[tuple[Any, dict[str, Any], str]] = [
    (client_message, {"type": "move", "move": "QH-7D", "ply": 0}, "move"),
    (lobby_message, {"type": "pool_join", "pool": "4/3+2"}, "pool"),
    (lobby_message, {"type": "seek_create", "time_control": "0.5+0"}, "time_control"),
    (lobby_message, {"type": "table_create", "players": 4, "time_control": "3d"},
     "time_control"),
    (lobby_message, {"type": "table_join", "table": "aB3_-x"}, "table"),
    (lobby_message, {"type": "table_leave", "table": "aB3_-x"}, "table"),
    (lobby_message, {"type": "table_start", "table": "aB3_-x"}, "table"),
    (lobby_message, {"type": "table_fill_ai", "table": "aB3_-x", "seat": 1, "level": 3},
     "table"),
    (lobby_message, {"type": "table_seat_clear", "table": "aB3_-x", "seat": 1}, "table"),
]

HOSTILE = ["\x00", "\x00{}", "{}\x00", "{}\n", "\t{}", "{}\x7f", "{}\x85", "{}\u202e",
           "{}ё", "{}" + "x" * 40, ""]


def _text_fields(schema: dict[str, Any]) -> set[tuple[str, str]]:
    """(message type, field) of every free text field of a socket's JSON schema."""
    found = set()
    for variant in schema.get("$defs", {}).values():
        kinds = variant.get("properties", {}).get("type", {})
        for kind in kinds.get("enum", [kinds.get("const")]):
            for name, spec in variant.get("properties", {}).items():
                if spec.get("type") == "string" and "const" not in spec and "enum" not in spec:
                    assert "pattern" in spec, f"{kind}.{name} takes any text"
                    found.add((kind, name))
    return found


def test_every_text_field_of_the_sockets_is_of_a_kind_and_covered_here():
    covered = {(message["type"], field) for _adapter, message, field in TEXT_FIELDS}
    assert _text_fields(client_message.json_schema()) | _text_fields(
        lobby_message.json_schema()) == covered


@pytest.mark.parametrize(("adapter", "message", "field"), TEXT_FIELDS,
                         ids=[f"{m['type']}.{f}" for _a, m, f in TEXT_FIELDS])
def test_text_fields_take_their_kind_and_refuse_nul_control_and_long_values(
        adapter, message, field):
    adapter.validate_json(json.dumps(message))  # as a client writes it
    for shape in HOSTILE:
        hostile = {**message, field: shape.replace("{}", message[field])}
        with pytest.raises(ValidationError):
            adapter.validate_json(json.dumps(hostile))


@pytest.mark.django_db(transaction=True)
def test_a_nul_byte_in_a_table_token_is_refused_and_reaches_no_query(
        asgi_server, make_user, sockets_settled):
    url = asgi_server.extra["url"]
    cookie = session_cookie_for(make_user())

    async def scenario() -> list[dict[str, Any]]:
        async with websockets.connect(f"{url.replace('http', 'ws')}/ws/lobby/", origin=url,
                                      additional_headers={"Cookie": cookie}) as ws:
            replies = []
            for kind in ("table_join", "table_leave", "table_start"):
                await ws.send(json.dumps({"type": kind, "table": "abc\x00def"}))
                while True:
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if reply["type"] == "error":
                        replies.append(reply)
                        break
            return replies

    replies = asyncio.run(scenario())
    assert [reply["code"] for reply in replies] == ["bad_message"] * 3, replies
    assert server_errors(asgi_server) == []


@pytest.mark.django_db(transaction=True)
def test_an_announcement_with_a_nul_byte_is_refused(asgi_server, make_user, sockets_settled):
    url = asgi_server.extra["url"]
    cookie = session_cookie_for(make_user(is_staff=True))

    async def scenario() -> dict[str, Any]:
        async with websockets.connect(f"{url.replace('http', 'ws')}/ws/site/", origin=url,
                                      additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "announce", "text": "Restart\x00 soon"}))
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if reply["type"] in ("error", "announcement"):
                    return reply

    reply = asyncio.run(scenario())
    assert reply["type"] == "error", reply
    assert reply["code"] == "invalid", reply
