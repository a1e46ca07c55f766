"""The game page says over its socket when it comes into view and focus, or leaves it: the
seat counts its focused sockets while they are open (a spectator's counts for nothing), so that
the player is not told of turns they see come (docs/notifications.md)."""

from __future__ import annotations

import asyncio
import time

import pytest

from games.play import services
from games.play.models import Seat
from games.play.services import Player
from tests.games.sockets import MatchSocket, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def _focused(match, seat: int) -> int:
    return Seat.objects.get(match=match, index=seat).focused


def test_a_player_s_focused_sockets_are_counted_while_open(asgi_server, make_user,
                                                         sockets_settled):
    alice, bob = make_user(), make_user()
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], trumps="SH")
    cookies = [session_cookie_for(alice), session_cookie_for(make_user())]
    seen: list[int] = []

    async def scenario() -> list[dict]:
        mine = await MatchSocket.open(asgi_server, match.pk, cookies[0])
        spectator = await MatchSocket.open(asgi_server, match.pk, cookies[1])
        answers = []
        for socket, focused in ((mine, True), (mine, True), (spectator, True)):
            await socket.send({"type": "focus", "focused": focused})
            answers.append(await socket.next("ok", "error"))
        seen.append(await asyncio.to_thread(_focused, match, 0))
        await mine.send({"type": "focus", "focused": False})
        answers.append(await mine.next("ok", "error"))
        seen.append(await asyncio.to_thread(_focused, match, 0))
        await mine.send({"type": "focus", "focused": True})
        answers.append(await mine.next("ok", "error"))
        seen.append(await asyncio.to_thread(_focused, match, 0))
        await mine.close()
        await spectator.close()
        return answers

    answers = asyncio.run(scenario())

    assert [(a["type"], a["for"]) for a in answers] == [("ok", "focus")] * 5
    assert seen == [1, 0, 1]  # the same socket twice counts once; the spectator's not at all
    deadline = time.monotonic() + 10
    while _focused(match, 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _focused(match, 0) == 0  # its socket closed
    assert _focused(match, 1) == 0
