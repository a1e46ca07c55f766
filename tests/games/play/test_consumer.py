"""The match socket on a real daphne with the Redis channel layer and PostgreSQL: every
refusal is a typed error and leaves the match as it was. (No browser in this module: its
asyncio runs in `asyncio.run`, which sync Playwright's loop would disturb.)"""

from __future__ import annotations

import asyncio

import pytest

from games.play import services
from games.play.models import Match, Move, Status
from games.play.services import Player
from tests.games.conftest import SHORT_DUEL
from tests.games.sockets import MatchSocket, session_cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]


@pytest.fixture
def duel(alice, bob):
    return services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=7, dealer=1, trumps="SH"
    )


def snapshot(match: Match) -> tuple:
    match = Match.objects.get(pk=match.pk)
    return (match.ply, match.position_tpn, match.status,
            Move.objects.filter(match=match).count())


def test_a_player_gets_the_state_of_their_seat_with_the_legal_moves(asgi_server, duel, alice, bob):
    cookies = session_cookie_for(alice), session_cookie_for(bob)

    async def scenario():
        first = await MatchSocket.open(asgi_server, duel.pk, cookies[0])
        second = await MatchSocket.open(asgi_server, duel.pk, cookies[1])
        spectator = await MatchSocket.open(asgi_server, duel.pk)
        await first.close(), await second.close(), await spectator.close()
        return first.state, second.state, spectator.state

    first, second, spectator = asyncio.run(scenario())

    assert first["you"] == 0
    assert second["you"] == 1
    assert spectator["you"] is None
    assert first["to_move"] == 0
    assert len(first["legal_moves"]) == len(first["seats"][0]["hand"]) > 0
    assert second["legal_moves"] == spectator["legal_moves"] == []
    # The duel is of perfect information: both hands are open, to spectators too.
    assert spectator["seats"][1]["hand"] == first["seats"][1]["hand"]
    assert first["version"] >= 1


def test_a_move_reaches_the_opponent_and_the_spectator(asgi_server, duel, alice, bob):
    cookies = session_cookie_for(alice), session_cookie_for(bob)

    async def scenario():
        first = await MatchSocket.open(asgi_server, duel.pk, cookies[0])
        second = await MatchSocket.open(asgi_server, duel.pk, cookies[1])
        spectator = await MatchSocket.open(asgi_server, duel.pk)
        move = first.state["legal_moves"][0]
        await first.send({"type": "move", "move": move, "ply": 0})
        ok = await first.next("ok")
        seen = await second.state_at(ok["version"])
        watched = await spectator.state_at(ok["version"])
        await spectator.send({"type": "resign"})
        refused = await spectator.next("error")
        for socket in (first, second, spectator):
            await socket.close()
        return move, seen, watched, refused

    move, seen, watched, refused = asyncio.run(scenario())

    assert seen["last_move"] == {"ply": 1, "seat": 0, "move": move, "taken": []}
    assert seen["to_move"] == 1
    assert seen["legal_moves"]
    assert watched["moves"] == [[0, move]]
    assert refused["code"] == "not_a_player"
    assert Match.objects.get(pk=duel.pk).status == Status.PLAYING


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "move", "move": "+9", "ply": 0}, "illegal_move"),
        ({"type": "move", "move": "LEGAL", "ply": 3}, "stale_ply"),
        ("{not json", "bad_message"),
        ({"type": "move", "move": "9H"}, "bad_message"),
        ({"type": "move", "move": "9H", "ply": 0, "extra": 1}, "bad_message"),
        ({"type": "dance"}, "bad_message"),
        (["move"], "bad_message"),
        ({"type": "rematch"}, "game_not_over"),
        ({"type": "draw_accept"}, "no_draw_offer"),
    ],
)
def test_a_refused_message_gets_its_typed_error_and_changes_nothing(
    asgi_server, duel, alice, message, code
):
    before = snapshot(duel)
    cookie = session_cookie_for(alice)

    async def scenario():
        socket = await MatchSocket.open(asgi_server, duel.pk, cookie)
        payload = message
        if isinstance(message, dict) and message.get("move") == "LEGAL":
            payload = {**message, "move": socket.state["legal_moves"][0]}
        await socket.send(payload)
        error = await socket.next("error")
        await socket.close()
        return error

    error = asyncio.run(scenario())

    assert error["code"] == code
    assert error["version"] is not None
    assert error["detail"]
    assert snapshot(duel) == before


def test_a_move_out_of_turn_is_refused(asgi_server, duel, bob):
    before = snapshot(duel)
    cookie = session_cookie_for(bob)

    async def scenario():
        socket = await MatchSocket.open(asgi_server, duel.pk, cookie)
        hand = socket.state["seats"][1]["hand"]
        await socket.send({"type": "move", "move": hand[0], "ply": 0})
        error = await socket.next("error")
        await socket.close()
        return error

    assert asyncio.run(scenario())["code"] == "not_your_turn"
    assert snapshot(duel) == before


def test_a_replayed_move_message_is_refused_as_stale(asgi_server, duel, alice):
    cookie = session_cookie_for(alice)

    async def scenario():
        socket = await MatchSocket.open(asgi_server, duel.pk, cookie)
        message = {"type": "move", "move": socket.state["legal_moves"][0], "ply": 0}
        await socket.send(message)
        ok = await socket.next("ok", "error")
        await socket.send(message)
        error = await socket.next("error")
        await socket.close()
        return ok, error

    ok, error = asyncio.run(scenario())

    assert ok["type"] == "ok"
    assert error["code"] == "stale_ply"
    assert snapshot(duel)[0] == 1


def test_a_user_who_is_not_in_the_match_cannot_act(asgi_server, duel, make_user):
    stranger = make_user("stranger")
    before = snapshot(duel)
    cookie = session_cookie_for(stranger)

    async def scenario():
        socket = await MatchSocket.open(asgi_server, duel.pk, cookie)
        move = socket.state["seats"][0]["hand"][0]
        await socket.send({"type": "move", "move": move, "ply": 0})
        error = await socket.next("error")
        await socket.close()
        return socket.state, error

    state, error = asyncio.run(scenario())

    assert state["you"] is None
    assert error["code"] == "not_a_player"
    assert snapshot(duel) == before


def test_a_private_match_refuses_strangers(asgi_server, alice, bob, make_user):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], trumps="SH", public=False
    )
    cookie = session_cookie_for(make_user("nosy"))

    async def scenario():
        import json

        import websockets

        url = asgi_server.extra["url"]
        async with websockets.connect(
            f"{url.replace('http', 'ws')}/ws/match/{match.pk}/", origin=url,
            additional_headers={"Cookie": cookie},
        ) as connection:
            return json.loads(await asyncio.wait_for(connection.recv(), 10))

    assert asyncio.run(scenario())["code"] == "not_a_player"


def test_two_connections_of_one_user_send_the_same_move_at_once(asgi_server, duel, alice):
    """Exactly one of two identical moves sent at once is played; the other is stale."""

    cookie = session_cookie_for(alice)

    async def scenario():
        one = await MatchSocket.open(asgi_server, duel.pk, cookie)
        two = await MatchSocket.open(asgi_server, duel.pk, cookie)
        message = {"type": "move", "move": one.state["legal_moves"][0], "ply": 0}
        await asyncio.gather(one.send(message), two.send(message))
        replies = await asyncio.gather(one.next("ok", "error"), two.next("ok", "error"))
        await one.close(), await two.close()
        return replies

    replies = asyncio.run(scenario())

    assert sorted(r["type"] for r in replies) == ["error", "ok"]
    assert next(r for r in replies if r["type"] == "error")["code"] == "stale_ply"
    assert Move.objects.filter(match=duel).count() == 1


def test_a_short_duel_played_over_sockets_ends_with_its_result(asgi_server, alice, bob):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, start_tpn=SHORT_DUEL
    )

    cookies = [session_cookie_for(user) for user in (alice, bob)]

    async def scenario():
        sockets = [await MatchSocket.open(asgi_server, match.pk, c) for c in cookies]
        for ply, (seat, move) in enumerate([(0, "7C"), (1, "8C-KD"), (0, "+3"), (1, "6D")]):
            await sockets[seat].send({"type": "move", "move": move, "ply": ply})
            ok = await sockets[seat].next("ok", "error")
            assert ok["type"] == "ok", ok
        final = await sockets[0].state_at(ok["version"])
        for socket in sockets:
            await socket.close()
        return final

    final = asyncio.run(scenario())

    assert final["status"] == "finished"
    assert final["result"]["loser"] == 0
    assert final["result"]["termination"] == "normal"
    assert final["seats"][1]["result"] == "win"


def test_a_guest_plays_at_the_seat_of_their_session(asgi_server):
    match = services.match_create(
        players=[Player(guest_id="g" * 32), Player(ai_level=1)], trumps="SH", dealer=1
    )

    cookie = session_cookie_for(guest_id="g" * 32)

    async def scenario():
        socket = await MatchSocket.open(asgi_server, match.pk, cookie)
        await socket.close()
        return socket.state

    state = asyncio.run(scenario())
    assert state["you"] == 0
    assert state["seats"][0]["kind"] == "guest"
