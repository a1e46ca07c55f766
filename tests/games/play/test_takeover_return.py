"""A person whose seat at a table passed to the AI comes back: they are that seat's person on
the game page and its socket (their hand, the AI playing it, when it took over, their result),
not a spectator, and they act no more for it."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
from django.test import Client

from games.play import errors, services
from games.play.models import SeatResult
from games.play.services import Player
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from tests.games.conftest import T_AHEAD
from tests.games.sockets import MatchSocket, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def _at(seconds: float) -> datetime:
    """`seconds` after a start far ahead of the clock: no deadline watch running beside the
    test (a worker's, a server's) finds its deadlines due."""
    return T_AHEAD + timedelta(seconds=seconds)


def _taken_over_table(users, **options):
    match = services.match_create(players=[Player(user=u) for u in users],
                                  trumps="SHDC"[: len(users)],
                                  seed=7, dealer=0, now=T_AHEAD, **options)
    mover = match.to_move
    services.match_deadline_enforce(match_id=match.pk, now=_at(30))
    return match, mover


def test_the_returning_person_is_their_seat_on_the_socket_and_sees_their_result(
        asgi_server, make_user, sockets_settled):
    four = [make_user() for _ in range(4)]
    match, mover = _taken_over_table(four, public=False)
    other = (mover + 1) % 4

    # The game page of a private table is theirs still (a spectator would get a 404).
    client = Client()
    client.force_login(four[mover])
    assert client.get(f"/game/{match.pk}/").status_code == 200

    cookie = session_cookie_for(four[mover])

    async def scenario():
        socket = await MatchSocket.open(asgi_server, match.pk, cookie)
        try:
            seen = socket.state
            await socket.send({"type": "resign"})
            refused = await socket.next("error")
            await asyncio.to_thread(services.match_resign, match_id=match.pk, seat=other,
                                    now=_at(40))
            end = await socket.next("state")
            while end["result"] is None:
                end = await socket.next("state")
            return seen, refused, end
        finally:
            await socket.close()

    seen, refused, end = asyncio.run(scenario())

    assert seen["you"] == mover
    mine = seen["seats"][mover]
    assert (mine["taken_over"], mine["taken_over_ply"], mine["name"]) == (
        True, 0, four[mover].username)
    assert mine["hidden"] == 0
    assert mine["hand"]  # their own hand, face up
    assert seen["legal_moves"] == []  # the AI's to play
    assert refused["code"] == errors.NOT_ALLOWED
    assert end["you"] == mover
    assert end["seats"][mover]["result"] == SeatResult.LOSS
    assert end["seats"][mover]["taken_over_ply"] == 0


def test_a_spectator_sees_when_the_ai_took_the_seat_over(make_user):
    match, mover = _taken_over_table([make_user() for _ in range(3)])
    view = state_message(snapshot=match_snapshot(match_id=match.pk), viewer_seat=None,
                         now=_at(31))
    assert [seat["taken_over_ply"] for seat in view["seats"]] == [
        0 if index == mover else None for index in range(3)]
