"""A rematch of a table seats everyone who played it, so every person must agree (docs/play.md,
`match_rematch`): on the sockets of a real daphne at a table of 4, two agreeing make no match
and bar nobody from the lobby; the fourth agreement makes it, with all four. A person whose
seat the AI took over is asked too, and is seated as the person, never as the AI."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from games.matchmaking.core import in_live_game
from games.play import errors, services
from games.play.errors import PlayError
from games.play.models import Match, Seat
from games.play.services import Player
from tests.games.conftest import T_AHEAD
from tests.games.sockets import MatchSocket, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def _at(seconds: float) -> datetime:
    """`seconds` after a start far ahead of the clock: no deadline watch running beside the
    test (a worker's, a server's) finds its deadlines due."""
    return T_AHEAD + timedelta(seconds=seconds)


def _finished_table(players, **options) -> Match:
    match = services.match_create(players=players, trumps="SHDC"[: len(players)], seed=7,
                                  dealer=0, now=T_AHEAD, **options)
    services.match_resign(match_id=match.pk, seat=(match.to_move + 1) % len(players),
                          now=_at(1))
    return Match.objects.get(pk=match.pk)


def test_a_rematch_of_four_people_waits_for_all_four_on_the_sockets(
        asgi_server, make_user, sockets_settled):
    four = [make_user() for _ in range(4)]
    match = _finished_table([Player(user=u) for u in four], public=False)
    cookies = [session_cookie_for(u) for u in four]
    checks: dict[str, object] = {}

    async def agree(socket: MatchSocket) -> tuple[dict, dict]:
        await socket.send({"type": "rematch"})
        ok = await socket.next("ok")
        return ok, await socket.state_at(ok["version"])

    async def scenario() -> list[tuple[dict, dict]]:
        sockets = [await MatchSocket.open(asgi_server, match.pk, c) for c in cookies]
        try:
            answers = []
            for index, socket in enumerate(sockets):
                answers.append(await agree(socket))
                if index == 1:  # two of four agreed: nobody is seated anywhere yet
                    checks["made"] = await asyncio.to_thread(
                        lambda: Match.objects.filter(previous=match).exists())
                    checks["in_game"] = await asyncio.to_thread(
                        lambda: [in_live_game(u.pk) for u in four])
            return answers
        finally:
            for socket in sockets:
                await socket.close()

    answers = asyncio.run(scenario())

    assert checks == {"made": False, "in_game": [False] * 4}
    for index in range(3):
        ok, state = answers[index]
        assert ok["match_id"] is None
        assert state["rematch_id"] is None
        assert state["rematch_agreed"] == list(range(index + 1))
        assert state["rematch_awaited"] == list(range(index + 1, 4))
    ok, state = answers[3]
    new = Match.objects.get(previous=match)
    assert ok["match_id"] == new.pk == state["rematch_id"]
    assert list(Seat.objects.filter(match=new).order_by("index")
                .values_list("user_id", "ai_level")) == [(u.pk, None) for u in four]


def test_the_ai_agrees_but_a_person_whose_seat_it_took_is_asked_and_seated_as_themselves(
        make_user):
    anna, boris, vera = make_user(), make_user(), make_user()
    match = services.match_create(
        players=[Player(user=anna), Player(user=boris), Player(user=vera), Player(ai_level=2)],
        trumps="SHDC", seed=7, dealer=0, now=T_AHEAD)
    mover = match.to_move
    services.match_deadline_enforce(match_id=match.pk, now=_at(30))  # the mover left
    assert Seat.objects.get(match=match, index=mover).taken_over
    stayed = [index for index in range(3) if index != mover]
    services.match_resign(match_id=match.pk, seat=stayed[0], now=_at(31))

    for index in stayed:
        assert services.match_rematch(match_id=match.pk, seat=index, now=_at(32)).rematch is None
    assert not Match.objects.filter(previous=match).exists()
    with pytest.raises(PlayError) as refused:
        services.match_rematch(match_id=match.pk, seat=3, now=_at(32))  # the AI's own seat
    assert refused.value.code == errors.NOT_ALLOWED

    new = services.match_rematch(match_id=match.pk, seat=mover, now=_at(33)).rematch

    assert new is not None
    seats = list(Seat.objects.filter(match=new).order_by("index"))
    assert [(s.user_id, s.ai_level, s.taken_over) for s in seats] == [
        (anna.pk, None, False), (boris.pk, None, False), (vera.pk, None, False), (None, 2, False)]


def test_agreeing_twice_changes_nothing(make_user):
    three = [make_user() for _ in range(3)]
    match = _finished_table([Player(user=u) for u in three])
    services.match_rematch(match_id=match.pk, seat=0, now=_at(2))
    version = Match.objects.get(pk=match.pk).version
    assert services.match_rematch(match_id=match.pk, seat=0, now=_at(3)) is None
    assert Match.objects.get(pk=match.pk).version == version
