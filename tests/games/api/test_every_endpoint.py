"""Every operation of the API's schema, whatever it is, answers bad input with a JSON error
and its status: an unknown token is refused before anything runs, and path parameters that
name nothing or are malformed are a 4xx, never a server error. The operations are read from
the schema the code makes, so an endpoint added later is held to the same."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import TokenScope
from accounts.tokens import token_create

pytestmark = pytest.mark.django_db(transaction=True)

# Values for each path parameter: ones that name nothing, and malformed ones.
UNKNOWN = {"username": "nobody-here", "game_id": "987654321", "challenge_id": "Zz9Zz9Zz",
           "move": "7C", "suit": "C", "answer": "yes"}
MALFORMED = {"username": "a%00b", "game_id": "99999999999999999999999", "challenge_id": "%00",
             "move": "Q%00Q", "suit": "XX", "answer": "perhaps"}


def operations(client: Client) -> list[tuple[str, str]]:
    schema = client.get("/api/openapi.json").json()
    return [(method, path) for path, item in schema["paths"].items() for method in item]


def filled(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda name: values[name.group(1)], path)


def answer(client: Client, method: str, path: str, **headers: str) -> tuple[int, dict[str, Any]]:
    response = getattr(client, method)(path, **headers)
    assert response["Content-Type"].startswith("application/json"), (path, response.content)
    return response.status_code, response.json()


def test_every_operation_refuses_bad_tokens_and_bad_paths_with_json(make_user):
    client = Client()
    found = operations(client)
    assert len(found) >= 15  # the schema is read, not an empty one
    bot = make_user("robo")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    good = token_create(user=bot, name="all", scopes=list(TokenScope)).text
    for method, path in found:
        url = filled(path, UNKNOWN)
        status, body = answer(client, method, url, HTTP_AUTHORIZATION="Bearer yt_unknown")
        assert (status, body["error"]) == (401, "unauthorized"), (method, path)
        if "{" not in path:
            continue  # no parameter to name something unknown or malformed
        for values in (UNKNOWN, MALFORMED):
            url = filled(path, values)
            status, body = answer(client, method, url, HTTP_AUTHORIZATION=f"Bearer {good}")
            assert 400 <= status < 500, (method, url, status, body)
            assert body["error"], (method, url)
            assert body["detail"], (method, url)
