"""Who may act in a match and what each client may see, on a real daphne (Redis, PostgreSQL):
a stranger can neither act in a match nor read a private one, a socket from another site is
refused, and in 3-4 player games no hidden card reaches another player or a spectator — checked
by inspecting every frame every client received against the true hands at that ply."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
import websockets

from games.play import services
from games.play.models import Match, Move
from games.play.services import Player
from games.rules import Game, State
from tests.load.client import MatchClient, connect
from tests.load.sessions import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled")]

CARD = re.compile(r"(?<![0-9A-Z])([6789TJQKA][CDHS])(?![0-9A-Z])")


def snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return (match.version, match.ply, match.position_tpn, match.status,
            Move.objects.filter(match=match).count())


def test_a_stranger_cannot_act_in_a_public_match(asgi_server, make_user):
    players = [make_user(), make_user()]
    stranger = make_user()
    match = services.match_create(players=[Player(user=u) for u in players], trumps="SH")
    before = snapshot(match.pk)
    url = asgi_server.extra["url"]
    cookie = session_cookie(stranger)

    async def scenario():
        client = await MatchClient.open(url, match.pk, cookie)
        replies = []
        legal = [m for s in client.state["seats"] for m in s["hand"]]
        for message in [{"type": "move", "move": legal[0], "ply": 0}, {"type": "resign"},
                        {"type": "abort"}, {"type": "draw_offer"}, {"type": "claim_victory"},
                        {"type": "trump", "suit": "C"}, {"type": "rematch"}]:
            await client.send(message)
            replies.append(await client.next("error", "ok"))
        await client.close()
        return client.state, replies

    state, replies = asyncio.run(scenario())

    assert state["you"] is None
    assert state["legal_moves"] == []
    assert {r["type"] for r in replies} == {"error"}
    assert {r["code"] for r in replies} == {"not_a_player"}
    assert snapshot(match.pk) == before


def test_a_private_match_is_refused_to_a_stranger_without_a_state(asgi_server, make_user):
    players = [make_user(), make_user()]
    match = services.match_create(players=[Player(user=u) for u in players], trumps="SH",
                                  public=False)
    url = asgi_server.extra["url"]

    async def scenario(cookie: str):
        connection = await connect(url, f"/ws/match/{match.pk}/", cookie)
        frames = []
        try:
            while True:
                frames.append(json.loads(await asyncio.wait_for(connection.recv(), 10)))
        except websockets.exceptions.ConnectionClosed:
            return frames, connection.close_code

    for cookie in ("", session_cookie(make_user())):
        frames, code = asyncio.run(scenario(cookie))
        assert code == 4403
        assert [f["type"] for f in frames] == ["error"]
        assert frames[0]["code"] == "not_a_player"
        assert not CARD.search(json.dumps(frames))


def test_a_player_of_one_match_cannot_act_in_another(asgi_server, make_user):
    a, b, c, d = (make_user() for _ in range(4))
    mine = services.match_create(players=[Player(user=a), Player(user=b)], trumps="SH")
    other = services.match_create(players=[Player(user=c), Player(user=d)], trumps="SH")
    before = snapshot(other.pk)
    url = asgi_server.extra["url"]
    cookie = session_cookie(a)

    async def scenario():
        client = await MatchClient.open(url, other.pk, cookie)
        await client.send({"type": "move", "move": client.state["seats"][0]["hand"][0],
                           "ply": 0})
        error = await client.next("error")
        await client.close()
        return error

    assert asyncio.run(scenario())["code"] == "not_a_player"
    assert mine.pk != other.pk
    assert snapshot(other.pk) == before


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1.evil.example"])
def test_a_match_socket_from_another_origin_is_refused(asgi_server, make_user, origin):
    user = make_user()
    match = services.match_create(players=[Player(user=user), Player(user=make_user())],
                                  trumps="SH")
    url = asgi_server.extra["url"]
    cookie = session_cookie(user)

    async def scenario():
        await connect(url, f"/ws/match/{match.pk}/", cookie, origin=origin)

    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        asyncio.run(scenario())
    assert refused.value.response.status_code == 403


def test_a_match_socket_without_an_origin_header_is_refused(asgi_server):
    url = asgi_server.extra["url"]

    async def scenario():
        await websockets.connect(url.replace("http", "ws") + "/ws/site/", open_timeout=10)

    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(scenario())


# --- hidden cards in 3-4 player games --------------------------------------------------------


def truth_at(match: Match, moves: list[str], ply: int) -> tuple[State, set[str]]:
    """The true position after `ply` moves, and the cards everyone may know the place of:
    every card ever played face up (its moves are in view afterwards), and the sixes of the
    players' trumps (given at the deal in view)."""
    game = Game(State.from_tpn(match.deal_tpn), seed=match.seed, dealer=match.dealer)
    public: set[str] = {f"6{t}" for t in match.deal_tpn.split()[0]}
    for text in moves[:ply]:
        game.play(text)
        public.update(CARD.findall(text))
    return game.state, public


def leaks(match: Match, viewer: int | None, frames: list[str]) -> list[str]:
    moves = list(Move.objects.filter(match=match).order_by("ply").values_list("text", flat=True))
    found, ply, truths = [], 0, {}
    for text in frames:
        frame = json.loads(text)
        if frame.get("type") == "state":
            ply = frame["ply"]
        if ply not in truths:
            truths[ply] = truth_at(match, moves, ply)
        state, public = truths[ply]
        holder = {str(card): seat for seat in range(state.n_players)
                  for card in state.hand(seat)}
        for card in CARD.findall(text):
            seat = holder.get(card)
            if seat is not None and seat != viewer and card not in public:
                found.append(f"ply {ply}: {card} of seat {seat} sent to {viewer}")
    return found


@pytest.mark.parametrize("n_players", [3, 4])
def test_no_hidden_card_reaches_another_player_or_a_spectator(asgi_server, make_user, n_players):
    users = [make_user() for _ in range(n_players)]
    match = services.match_create(players=[Player(user=u) for u in users],
                                  trumps="SHDC"[:n_players], seed=11 + n_players, dealer=0)
    url = asgi_server.extra["url"]
    rng = random.Random(n_players)
    max_plies = 30
    cookies = [session_cookie(u) for u in [*users, make_user()]]

    async def scenario():
        seats = [await MatchClient.open(url, match.pk, cookie, keep_frames=True)
                 for cookie in cookies[:-1]]
        spectator = await MatchClient.open(url, match.pk, keep_frames=True)
        stranger = await MatchClient.open(url, match.pk, cookies[-1], keep_frames=True)
        clients = [*seats, spectator, stranger]
        for _ in range(max_plies):
            state = seats[0].state
            if state["result"] is not None:
                break
            mover = seats[state["to_move"]]
            await mover.state_at(state["version"])
            await mover.send({"type": "move", "move": rng.choice(mover.state["legal_moves"]),
                              "ply": mover.state["ply"]})
            ok = await mover.next("ok")
            for client in clients:
                await client.state_at(ok["version"])
        await stranger.send({"type": "sync"})
        await stranger.next("state")
        for client in clients:
            await client.close()
        return [client.frames for client in clients]

    frames = asyncio.run(scenario())

    match.refresh_from_db()
    assert match.ply >= min(max_plies, 10)
    viewers: list[int | None] = [*range(n_players), None, None]
    for viewer, received in zip(viewers, frames, strict=True):
        assert len(received) > match.ply // 2
        assert leaks(match, viewer, received) == []
    # The check itself sees a leak: a seat's own frames hold cards no other seat may see.
    assert leaks(match, None, frames[0])
