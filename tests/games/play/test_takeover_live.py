"""A person leaves a table and the real Celery worker's deadline watch passes their seat to
the AI, whose moves the worker then plays to the end; a spectator's socket sees the seat
marked as taken over."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.play import services
from games.play.models import Match, Move, Seat, SeatResult, Status
from games.play.services import Player
from tests.games.sockets import MatchSocket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("matches_stopped")]

# Three small hands, seat 0 to lead: a table the AI seats play to its end in a few dozen
# moves, each of seat 0's searched within the level's budget (a move takes at most two
# cards out of a hand, so seat 0 moves at least twice).
SMALL_DEAL = "SHD 7C8CQD/6C9CTC7H9D/JCKC8S - 0 -"


def test_the_worker_replaces_a_person_who_left_and_plays_their_seat_to_the_end(
        asgi_server, celery_worker, make_user, sockets_settled):
    leaver = make_user()
    # The person never opened the game, which began longer ago than the absence allowed:
    # their seat is due to pass to the AI as soon as it is their turn (seat 0 leads).
    start = timezone.now() - timedelta(seconds=settings.GAMES_TABLE_ABSENCE_SECONDS + 1)
    match = services.match_create(
        players=[Player(user=leaver), Player(ai_level=1), Player(ai_level=2)], dealer=2,
        start_tpn=SMALL_DEAL, now=start,
    )
    assert match.to_move == 0

    async def watch() -> list[dict]:
        spectator = await MatchSocket.open(asgi_server, match.pk)
        states = [spectator.state]
        try:
            while spectator.state["status"] == Status.PLAYING:
                states.append(await spectator.next("state"))
            return states
        finally:
            await spectator.close()

    states = asyncio.run(asyncio.wait_for(watch(), 240))

    seat = Seat.objects.get(match=match, index=0)
    assert seat.taken_over_ply == 0
    assert seat.ai_level >= 3
    assert Move.objects.filter(match=match, seat=0).count() > 1
    match = Match.objects.get(pk=match.pk)
    assert match.status == Status.FINISHED
    assert seat.result == SeatResult.LOSS
    marked = [s["seats"][0] for s in states if s["seats"][0]["taken_over"]]
    assert marked
    assert all(m["name"] == leaver.username for m in marked)
    assert states[-1]["seats"][0]["taken_over"]
