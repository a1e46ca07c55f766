"""Every operation of the API's schema, whatever it is, answers bad input with a JSON error
and its status: an unknown token is refused before anything runs, and path parameters that
name nothing or are malformed are a 4xx, never a server error; a token without the scope,
a person's token on a bot's act and a bot outside the game are refused, the game unchanged.
The operations are read from the schema the code makes, so an endpoint added later is held
to the same."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import TokenScope
from accounts.tokens import token_create
from games.matchmaking.models import Challenge
from games.play import services
from games.play.models import Match, Move, Status
from games.play.services import Player
from tests.games.conftest import SHORT_DUEL

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


def bot_token(make_user, name: str, scopes: list[str], *, bot: bool = True) -> str:
    user = make_user(name)
    user.is_bot = bot
    user.save(update_fields=["is_bot"])
    return token_create(user=user, name="t", scopes=scopes).text


def test_every_operation_refuses_a_wrong_scope_and_another_players_game(make_user):
    """Each operation with a game in its path, called by a bot that does not play in that
    private game, is refused and the game is unchanged; each operation of the Bot API and of
    challenges refuses a token without its scope, and each act in a game a person's token."""
    client = Client()
    first, second = make_user("first"), make_user("second")
    for player in (first, second):
        player.is_bot = True
        player.save(update_fields=["is_bot"])
    match = services.match_create(players=[Player(user=first), Player(user=second)],
                                  start_tpn=SHORT_DUEL, dealer=1, public=False)
    before = Match.objects.get(pk=match.pk).version
    outsider = bot_token(make_user, "outsider", list(TokenScope))
    reader = bot_token(make_user, "reader", [TokenScope.READ])
    person = bot_token(make_user, "person", list(TokenScope), bot=False)
    values = {**UNKNOWN, "game_id": str(match.pk), "username": "first"}
    found = operations(client)
    in_a_game = [(method, path) for method, path in found if "{game_id}" in path]
    assert len(in_a_game) >= 8
    for method, path in in_a_game:
        url = filled(path, values) + "?ply=0"
        status, body = answer(client, method, url, HTTP_AUTHORIZATION=f"Bearer {outsider}")
        assert (status, body["error"]) in ((403, "not_a_player"), (404, "not_found")), (
            method, path, status, body)
        if path.startswith("/api/bot/game/"):
            status, body = answer(client, method, url, HTTP_AUTHORIZATION=f"Bearer {person}")
            assert (status, body["error"]) == (403, "not_a_bot"), (method, path)
    scoped = [(method, path) for method, path in found
              if path.startswith(("/api/bot/", "/api/challenge/", "/api/stream/event"))]
    assert len(scoped) >= 11
    for method, path in scoped:
        url = filled(path, values) + "?ply=0"
        status, body = answer(client, method, url, HTTP_AUTHORIZATION=f"Bearer {reader}")
        assert (status, body["error"]) == (403, "missing_scope"), (method, path)
    match.refresh_from_db()
    assert (match.version, match.status, match.ply) == (before, Status.PLAYING, 0)
    assert not Move.objects.filter(match=match).exists()
    assert not Challenge.objects.exists()
