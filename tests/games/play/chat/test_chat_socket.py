"""Game chat on the real match socket (daphne, the Redis channel layer, PostgreSQL): rooms
kept apart, phrases in each reader's language, blocks, and a flood that is refused line by
line while the game goes on."""

from __future__ import annotations

import asyncio

import pytest

from accounts.models import Block
from games.play import services
from games.play.chat.models import ChatMessage
from games.play.services import Player
from tests.games.sockets import MatchSocket, session_cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]


@pytest.fixture
def duel(alice, bob):
    return services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=7, dealer=1, trumps="SH"
    )


async def _open(server, match_id, cookie=""):
    socket = await MatchSocket.open(server, match_id, cookie)
    history = await socket.next("chat_history")
    return socket, history


def test_rooms_phrases_and_blocks(asgi_server, duel, alice, bob, make_user):
    bob.language = "ru"
    bob.save(update_fields=["language"])
    carol, dave = make_user("carol"), make_user("dave")
    Block.objects.create(blocker=carol, blocked=dave)
    cookies = [session_cookie_for(user) for user in (alice, bob, carol, dave)]

    async def scenario():
        (first, history), (second, _h) = [await _open(asgi_server, duel.pk, c)
                                          for c in cookies[:2]]
        (watcher, watched), (blocked, _b) = [await _open(asgi_server, duel.pk, c)
                                             for c in cookies[2:]]
        await watcher.send({"type": "chat", "kind": "text", "body": "play the queen!"})
        assert (await watcher.next("ok", "error"))["type"] == "ok"
        spectators_line = await watcher.next("chat")
        await blocked.send({"type": "chat", "kind": "emoji", "body": "👍"})
        await blocked.next("ok")
        await first.send({"type": "chat", "kind": "phrase", "body": "good_game"})
        await first.next("ok")
        mine = await first.next("chat")
        theirs = await second.next("chat")  # the first line bob sees: no spectator's
        await watcher.send({"type": "chat", "kind": "phrase", "body": "hello"})
        after_block = await watcher.next("chat")  # dave's reaction never came to carol
        visitor, visited = await _open(asgi_server, duel.pk)
        await visitor.send({"type": "chat", "kind": "phrase", "body": "hello"})
        refused = await visitor.next("error")
        await visitor.close()
        for socket in (first, second, watcher, blocked):
            await socket.close()
        return history, watched, spectators_line, mine, theirs, after_block, visited, refused

    (history, watched, spectators_line, mine, theirs, after_block, visited,
     refused) = asyncio.run(scenario())

    assert history["room"] == "players"
    assert watched["room"] == "spectators"
    assert history["free_text"] is True
    assert history["muted"] is None
    assert spectators_line["line"]["text"] == "play the queen!"
    assert mine["line"]["text"] == "Good game!"
    assert mine["line"]["mine"]
    assert theirs["line"]["text"] == "Хорошая игра!"
    assert theirs["line"]["phrase"] == "good_game"
    assert theirs["line"]["reportable"]
    assert not theirs["line"]["mine"]
    assert after_block["line"]["phrase"] == "hello"
    assert after_block["line"]["mine"]
    assert visited["may_speak"] == "Log in to chat."
    assert [line["text"] for line in visited["lines"]] == ["play the queen!", "👍", "Hello!"]
    assert (refused["code"], refused["for"]) == ("chat_not_allowed", "chat")
    rooms = dict(ChatMessage.objects.values_list("body", "room"))
    assert rooms == {"play the queen!": "spectators", "👍": "spectators",
                     "good_game": "players", "hello": "spectators"}


def test_a_chat_flood_is_refused_line_by_line_and_the_game_goes_on(
        asgi_server, duel, alice, bob):
    cookies = session_cookie_for(alice), session_cookie_for(bob)

    async def scenario():
        (first, _h), (second, _s) = [await _open(asgi_server, duel.pk, c) for c in cookies]
        for number in range(100):
            await first.send({"type": "chat", "kind": "text", "body": f"spam {number}"})
        answers = [await first.next("ok", "error") for _ in range(100)]
        move = first.state["legal_moves"][0]
        await first.send({"type": "move", "move": move, "ply": 0})
        moved = await first.next("ok")
        seen = await second.state_at(moved["version"])
        reply = second.state["legal_moves"][0]
        await second.send({"type": "move", "move": reply, "ply": 1})
        replied = await second.next("ok")
        await first.state_at(replied["version"])
        await second.send({"type": "chat", "kind": "phrase", "body": "thinking"})
        second_ok = await second.next("ok", "error")
        for socket in (first, second):
            await socket.close()
        return answers, seen, second_ok

    answers, seen, second_ok = asyncio.run(scenario())

    oks = [a for a in answers if a["type"] == "ok"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(oks) == 5
    assert {a["code"] for a in refused} == {"chat_rate_limited"}
    assert "too fast" in refused[0]["detail"]
    assert "Wait" in refused[0]["detail"]
    assert seen["ply"] == 1
    assert second_ok["type"] == "ok"
    assert ChatMessage.objects.filter(author=alice).count() == 5
