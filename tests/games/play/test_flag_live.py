"""A silent mover loses on time: the deadline watch of the real Celery worker sees the clock
run out, and a spectator's socket sees the result."""

from __future__ import annotations

import asyncio

import pytest

from games.play import services
from games.play.models import Match, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.games.sockets import MatchSocket

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_silent_player_loses_on_time(asgi_server, celery_worker, alice, bob):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, trumps="SH",
        time_control=TimeControl(2, 0),
    )

    async def watch() -> dict:
        spectator = await MatchSocket.open(asgi_server, match.pk)
        try:
            while spectator.state["status"] == Status.PLAYING:
                await spectator.next("state")
            return spectator.state
        finally:
            await spectator.close()

    final = asyncio.run(watch())

    assert final["result"]["termination"] == TerminationReason.TIMEOUT
    assert final["result"]["loser"] == 0
    assert final["seats"][0]["clock_ms"] == 0
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.loser_seat) == (Status.FINISHED, 0)
