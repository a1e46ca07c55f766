"""The API's calls one by one, through the whole Django stack (django-ninja, the middleware,
the database threads): what each answers, and that bad tokens, missing scopes, another
player's game and malformed moves get a clear JSON error with its status and change
nothing. The streams are tested over a real server (`test_bot_client`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings

from accounts.models import ApiToken, TokenScope
from accounts.tokens import token_create, token_digest
from games.matchmaking.models import Challenge, ChallengeStatus
from games.play import services
from games.play.models import Match, Move, Status
from games.play.services import Player
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from games.play.time_control import TimeControl
from tests.games.conftest import SHORT_DUEL

pytestmark = pytest.mark.django_db(transaction=True)

ALL = [TokenScope.READ, TokenScope.BOT, TokenScope.CHALLENGE]


def call(client: Client, method: str, path: str, token: str | None = None,
         **data: Any) -> tuple[int, dict[str, Any]]:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
    response = getattr(client, method)(path, data=data or None, **headers)
    assert response["Content-Type"].startswith("application/json"), response.content
    return response.status_code, response.json()


def bot_with_token(make_user, name: str, scopes=ALL) -> tuple[Any, str]:
    user = make_user(name)
    user.is_bot = True
    user.save(update_fields=["is_bot"])
    return user, token_create(user=user, name="t", scopes=list(scopes)).text


def duel_of(first, second, **options: Any) -> Match:
    return services.match_create(players=[Player(user=first), Player(user=second)],
                                 start_tpn=SHORT_DUEL, dealer=1, **options)


def test_tokens_and_scopes_are_checked_with_clear_errors(make_user):
    client = Client()
    bot, token = bot_with_token(make_user, "robo", scopes=[TokenScope.READ])
    assert call(client, "post", "/api/bot/account/upgrade") == (
        401, {"error": "unauthorized", "detail": "this call needs a token with the scope bot:play"})
    status, body = call(client, "post", "/api/bot/account/upgrade", token="yt_" + "x" * 40)
    assert (status, body["error"]) == (401, "unauthorized")
    status, body = call(client, "get", "/api/account", token=token.upper())
    assert (status, body["error"]) == (401, "unauthorized")
    response = client.get("/api/account", HTTP_AUTHORIZATION=f"Basic {token}")
    assert (response.status_code, response.json()["error"]) == (401, "unauthorized")
    status, body = call(client, "post", "/api/bot/account/upgrade", token=token)
    assert (status, body["error"]) == (403, "missing_scope")
    status, body = call(client, "post", "/api/challenge/anyone", token=token)
    assert (status, body["error"]) == (403, "missing_scope")
    assert call(client, "get", "/api/account", token=token) == (
        200, {"name": "robo", "title": "BOT", "bot_challenges": True, "scopes": ["games:read"]})
    # Only the digest is kept: the text is nowhere in the database.
    stored = ApiToken.objects.get(user=bot)
    assert stored.digest == token_digest(token)
    assert token not in stored.digest
    assert stored.last_used_at is not None
    # Past the limits: a token's calls, an address's failed authentications.
    with override_settings(API_RATE_LIMITS={"request": (3, 60), "auth_failure": (2, 60),
                                            "token_create": (10, 3600)}):
        calls_past_the_limit_are_refused_with_the_wait(make_user)


def calls_past_the_limit_are_refused_with_the_wait(make_user):
    client = Client(REMOTE_ADDR="192.0.2.7")  # an address of its own: others fail to log in
    _bot, token = bot_with_token(make_user, "hasty")
    for _ in range(3):
        assert call(client, "get", "/api/account", token=token)[0] == 200
    response = client.get("/api/account", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 429
    assert response.json()["error"] == "rate_limited"
    assert int(response["Retry-After"]) >= 1
    statuses = [call(client, "get", "/api/account", token=f"yt_guess{n}")[0] for n in range(3)]
    assert statuses == [401, 401, 429]


def upgrade_only_a_fresh_account(make_user):
    client = Client()
    fresh, played = make_user("fresh"), make_user("played")
    fresh_token = token_create(user=fresh, name="b", scopes=[TokenScope.BOT]).text
    played_token = token_create(user=played, name="b", scopes=[TokenScope.BOT]).text
    duel_of(played, make_user("other"))
    assert call(client, "post", "/api/bot/account/upgrade", token=fresh_token) == (
        200, {"ok": True})
    status, body = call(client, "post", "/api/bot/account/upgrade", token=played_token)
    assert (status, body["error"]) == (400, "not_fresh")
    fresh.refresh_from_db()
    played.refresh_from_db()
    assert fresh.is_bot
    assert not played.is_bot
    # A person's token may not play as a bot.
    status, body = call(client, "post", "/api/bot/game/1/resign", token=played_token)
    assert (status, body["error"]) == (403, "not_a_bot")


def test_moves_go_through_the_one_door_and_bad_ones_change_nothing(make_user):
    upgrade_only_a_fresh_account(make_user)
    client = Client()
    first, first_token = bot_with_token(make_user, "first")
    second, second_token = bot_with_token(make_user, "second")
    _third, third_token = bot_with_token(make_user, "third")
    match = duel_of(first, second)
    path = f"/api/bot/game/{match.pk}"
    refusals = [
        (call(client, "post", f"{path}/move/7C?ply=0", token=third_token), 403, "not_a_player"),
        (call(client, "post", f"{path}/move/8C?ply=0", token=second_token), 409,
         "not_your_turn"),
        (call(client, "post", f"{path}/move/7C?ply=3", token=first_token), 409, "stale_ply"),
        (call(client, "post", f"{path}/move/QS?ply=0", token=first_token), 400,
         "illegal_move"),
        (call(client, "post", f"{path}/move/ZZ?ply=0", token=first_token), 400,
         "illegal_move"),
        (call(client, "post", f"{path}/move/7c?ply=0", token=first_token), 400, "bad_request"),
        (call(client, "post", f"{path}/move/7C", token=first_token), 400, "bad_request"),
        (call(client, "post", f"{path}/move/7C?ply=-1", token=first_token), 400,
         "bad_request"),
        (call(client, "post", f"{path}/move/7C?ply=x", token=first_token), 400,
         "bad_request"),
        (call(client, "post", "/api/bot/game/999999/move/7C?ply=0", token=first_token), 404,
         "not_found"),
        (call(client, "post", f"{path}/trump/S", token=first_token), 400, "wrong_phase"),
        (call(client, "post", f"{path}/trump/Q", token=first_token), 400, "bad_request"),
        (call(client, "post", f"{path}/draw/maybe", token=first_token), 400, "bad_request"),
    ]
    for (status, body), expected_status, code in refusals:
        assert (status, body["error"]) == (expected_status, code), body
        assert body["detail"]
    assert Move.objects.filter(match=match).count() == 0
    # Marked BOT on the board, seen by anyone.
    view = state_message(snapshot=match_snapshot(match_id=match.pk), viewer_seat=None)
    assert [seat["bot"] for seat in view["seats"]] == [True, True]
    assert call(client, "post", f"{path}/move/7C?ply=0", token=first_token) == (
        200, {"ok": True, "version": Match.objects.get(pk=match.pk).version, "ply": 1})
    # The same move sent again is stale: applied once.
    status, body = call(client, "post", f"{path}/move/7C?ply=0", token=first_token)
    assert (status, body["error"]) == (409, "stale_ply")
    assert list(Move.objects.filter(match=match).values_list("text", flat=True)) == ["7C"]
    assert call(client, "post", f"{path}/resign", token=second_token)[0] == 200
    match.refresh_from_db()
    assert match.status == Status.FINISHED
    assert match.loser_seat == 1
    # The trumps chosen in turn, then the game aborted before it is under way.
    choosing = services.match_create(players=[Player(user=first), Player(user=second)],
                                     dealer=1)
    path = f"/api/bot/game/{choosing.pk}"
    assert call(client, "post", f"{path}/trump/S", token=second_token)[1]["error"] == (
        "not_your_turn")
    assert call(client, "post", f"{path}/trump/S", token=first_token)[0] == 200
    assert call(client, "post", f"{path}/trump/S", token=second_token)[1]["error"] == (
        "bad_trump")
    assert call(client, "post", f"{path}/trump/H", token=second_token)[0] == 200
    choosing.refresh_from_db()
    assert (choosing.status, choosing.trumps_chosen) == (Status.PLAYING, "SH")
    assert call(client, "post", f"{path}/abort", token=second_token)[0] == 200
    assert Match.objects.get(pk=choosing.pk).status == Status.ABORTED
    # A draw offered, then accepted.
    match = duel_of(first, second, time_control=TimeControl(180, 2))
    path = f"/api/bot/game/{match.pk}"
    assert call(client, "post", f"{path}/draw/yes", token=first_token)[0] == 200
    assert Match.objects.get(pk=match.pk).draw_offer_seat == 0
    assert call(client, "post", f"{path}/draw/yes", token=second_token)[0] == 200
    match.refresh_from_db()
    assert (match.status, match.result) == (Status.FINISHED, "draw")


def test_challenges_and_the_public_reads(make_user):
    challenges_between_bots_and_people(make_user)
    the_public_reads(make_user)


def challenges_between_bots_and_people(make_user):
    client = Client()
    bot, bot_token = bot_with_token(make_user, "robo")
    _other_bot, other_token = bot_with_token(make_user, "droid")
    person = make_user("anna")
    person_token = token_create(user=person, name="p", scopes=[TokenScope.CHALLENGE]).text
    status, made = call(client, "post", "/api/challenge/anna", token=bot_token,
                        time_control="3+2", rated="true")
    assert status == 200
    assert made["challenger"] == {"name": "robo", "title": "BOT",
                                                    "rating": 1500}
    assert (made["dest_user"]["name"], made["rated"], made["time_control"]) == (
        "anna", True, "3+2")
    status, body = call(client, "post", f"/api/challenge/{made['id']}/accept", token=other_token)
    assert (status, body["error"]) == (403, "not_for_you")
    assert call(client, "post", f"/api/challenge/{made['id']}/decline", token=person_token) == (
        200, {"ok": True})
    assert Challenge.objects.get(token=made["id"]).status == ChallengeStatus.DECLINED
    status, body = call(client, "post", f"/api/challenge/{made['id']}/accept",
                        token=person_token)
    assert (status, body["error"]) == (410, "gone")
    for bad, code in (({"time_control": "7+7"}, "unknown_time_control"),
                      ({"time_control": "corr", "rated": "true"}, "unrated_control"),
                      ({"rated": "sometimes"}, "bad_request")):
        status, body = call(client, "post", "/api/challenge/droid", token=bot_token, **bad)
        assert (status, body["error"]) == (400, code), body
    assert call(client, "post", "/api/challenge/nobody", token=bot_token)[0] == 404
    assert call(client, "post", "/api/challenge/nobody/accept", token=bot_token)[0] == 410
    # A person who turned off challenges from bots refuses them; people still challenge.
    person.bot_challenges = False
    person.save(update_fields=["bot_challenges"])
    status, body = call(client, "post", "/api/challenge/anna", token=bot_token)
    assert (status, body["error"]) == (403, "no_bot_challenges")
    status, made = call(client, "post", "/api/challenge/robo", token=person_token)
    assert status == 200
    status, accepted = call(client, "post", f"/api/challenge/{made['id']}/accept",
                            token=bot_token)
    assert status == 200
    match = Match.objects.get(pk=accepted["game_id"])
    assert {seat.user_id for seat in match.seats.all()} == {bot.pk, person.pk}


def the_public_reads(make_user):
    client = Client()
    first, first_token = bot_with_token(make_user, "first")
    second = make_user("second")
    finished = duel_of(first, second)
    for seat, move, ply in ((0, "7C", 0), (1, "8C-KD", 1), (0, "+3", 2), (1, "6D", 3)):
        services.move_apply(match_id=finished.pk, seat=seat, move=move, expected_ply=ply)
    private = duel_of(first, second, public=False)
    status, profile = call(client, "get", "/api/user/FIRST")
    assert status == 200
    assert profile["name"] == "first"
    assert profile["title"] == "BOT"
    assert (profile["played"], profile["lost"]) == (1, 1)
    assert [r["mode"] for r in profile["ratings"]] == ["duel", "table", "correspondence",
                                                       "puzzle"]
    assert call(client, "get", "/api/user/nobody")[0] == 404
    status, game = call(client, "get", f"/api/game/{finished.pk}")
    assert status == 200
    assert game["moves"] == ["7C", "8C-KD", "+3", "6D"]
    assert game["status"] == "finished"
    assert game["loser"] == 0
    assert game["record"]
    assert [p["title"] for p in game["players"]] == ["BOT", None]
    assert call(client, "get", f"/api/game/{private.pk}")[0] == 404
    status, mine = call(client, "get", f"/api/game/{private.pk}", token=first_token)
    assert status == 200
    assert mine["seat"] == 0
    response = client.get("/api/games/user/second?result=win")
    assert response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    assert [(game["id"], game["players"][1]["result"]) for game in lines] == [
        (finished.pk, "win")]
    assert client.get("/api/games/user/second?result=loss").content == b""
    status, body = call(client, "get", "/api/games/user/second?date_from=yesterday")
    assert (status, body["error"]) == (400, "bad_request")
    status, body = call(client, "get", "/api/games/user/second?max=0")
    assert (status, body["error"]) == (400, "bad_request")
    status, board = call(client, "get", "/api/leaderboard?mode=duel")
    assert status == 200
    assert board["mode"] == "duel"
    assert call(client, "get", "/api/leaderboard?mode=chess")[0] == 400
    schema = client.get("/api/openapi.json").json()
    assert "/api/bot/game/{game_id}/move/{move}" in schema["paths"]
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    docs = client.get("/api/")
    assert docs.status_code == 200
    assert b"/api/stream/event" in docs.content
    assert b"/api/openapi.json" in docs.content  # the schema, and a worked example in curl
    assert b"curl -N -H &quot;Authorization: Bearer $TOKEN&quot;" in docs.content
