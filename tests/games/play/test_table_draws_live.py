"""A table's draw over real sockets with the real Celery worker: two people agree on their
sockets and the AI seat's answer comes from the worker by itself, promptly; every frame is
checked against the contract on the way."""

from __future__ import annotations

import asyncio
import time

import pytest

from games.play.models import Match, Status, TerminationReason
from games.play.services import Player, match_create
from tests.games.sockets import MatchSocket, session_cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("matches_stopped")]

# Seat 1, the AI, holds ten cards against one each: as it sees it, it is likely to lose.
AI_BEHIND = "SHD AS/6C7C8C9CTC6D7D8D9DTD/KH - 0 -"


def test_two_people_agree_and_the_worker_s_ai_seat_accepts_by_itself(
        asgi_server, celery_worker, make_user):
    anna, boris = make_user(), make_user()
    match = match_create(players=[Player(user=anna), Player(ai_level=2), Player(user=boris)],
                         start_tpn=AI_BEHIND)

    cookies = session_cookie_for(anna), session_cookie_for(boris)

    async def agree() -> tuple[dict, float]:
        first = await MatchSocket.open(asgi_server, match.pk, cookies[0])
        second = await MatchSocket.open(asgi_server, match.pk, cookies[1])
        try:
            await first.send({"type": "draw_offer"})
            await first.next("ok")
            await second.send({"type": "draw_accept"})
            accepted_at = time.monotonic()
            await second.next("ok")
            while first.state["status"] != Status.FINISHED:
                await first.next("state")
            return first.state, time.monotonic() - accepted_at
        finally:
            await first.close()
            await second.close()

    final, waited = asyncio.run(asyncio.wait_for(agree(), 60))

    assert final["result"]["termination"] == TerminationReason.AGREEMENT
    assert final["draw_offer"] is None
    assert [seat["result"] for seat in final["seats"]] == ["draw"] * 3
    assert waited < 20  # the AI answered by itself, without anyone acting again
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.AGREEMENT)
