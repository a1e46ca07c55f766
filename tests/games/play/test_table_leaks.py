"""Nothing hidden leaks at a table of 3-4: whole games over real sockets (a real daphne, the
AI seats played by the real Celery worker), every frame sent to every player and to a
spectator inspected against what its receiver may know at that ply
(`games.rules.visible_hands`); and the replay of a table being played, at every ply."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
import websockets
from django.utils import timezone

from games.ai import choose_move
from games.play import services
from games.play.models import Match, Status
from games.play.selectors import match_game
from games.play.services import Player
from games.replays.selectors import replay_of_match
from games.rules import visible_hands
from games.rules.cards import CARD_NAMES, mask_codes
from tests.games.replays.conftest import play_match
from tests.games.sockets import session_cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("matches_stopped")]

CARD = re.compile(r"\b[6-9TJQKA][CDHS]\b")
GAME_SECONDS = 240
MOVE_PAUSE = 0.15


def _cards(mask: int) -> set[str]:
    return {CARD_NAMES[code] for code in mask_codes(mask)}


def _person_move(match_id: int, rng: random.Random, legal: list[str]) -> str:
    """A person's move, one of the state's legal moves: the greedy bot's choice (random
    play can wander for a thousand plies), now and then the first legal move."""
    from django.db import connection

    try:
        game = match_game(match=Match.objects.get(pk=match_id))
        assert game is not None
        move = str(choose_move(game, 2))
    finally:
        connection.close()
    return move if move in legal and rng.random() < 0.9 else legal[0]


async def _receive_all(url: str, match_id: int, cookie: str, seed: int) -> list[dict[str, Any]]:
    """Every message one client receives until the game is over; a player plays a random
    legal move from the state whenever it is to move (the board's only source of moves)."""
    rng = random.Random(seed)
    frames: list[dict[str, Any]] = []
    moved_at: int | None = None
    async with websockets.connect(
        f"{url.replace('http', 'ws')}/ws/match/{match_id}/", origin=url,
        additional_headers={"Cookie": cookie} if cookie else {},
    ) as socket:
        while True:
            message = json.loads(await socket.recv())
            frames.append(message)
            if message["type"] == "error":  # the game moved on meanwhile: see it anew
                moved_at = None
                await socket.send(json.dumps({"type": "sync"}))
            if message["type"] != "state":
                continue
            if message["status"] in (Status.FINISHED, Status.ABORTED):
                return frames
            if message["legal_moves"] and message["ply"] != moved_at:
                moved_at = message["ply"]
                # As a person would: the socket's rate limit is far above a person's pace.
                await asyncio.sleep(MOVE_PAUSE)
                move = await asyncio.to_thread(_person_move, match_id, rng,
                                               message["legal_moves"])
                await socket.send(json.dumps({"type": "move", "ply": message["ply"],
                                              "move": move}))


async def _play(url: str, match_id: int, receivers: list[tuple[int | None, str]], seed: int
                ) -> list[list[dict[str, Any]]]:
    return await asyncio.wait_for(asyncio.gather(*(
        _receive_all(url, match_id, cookie, seed * 10 + i)
        for i, (_seat, cookie) in enumerate(receivers))), GAME_SECONDS)


def _check_frame(frame: dict[str, Any], viewer: int | None, game) -> None:
    """The frame shows exactly what `viewer` may know at its ply, and no other card."""
    state = game.position_at(frame["ply"])
    known, hidden = visible_hands(state, viewer)
    allowed = set(str(card) for card in state.pile)
    for seat in frame["seats"]:
        index = seat["index"]
        assert set(seat["hand"]) == _cards(known[index]), (frame["ply"], viewer, index)
        assert seat["hidden"] == hidden[index], (frame["ply"], viewer, index)
        assert seat["hand_size"] == state.hand_size(index)
        allowed |= _cards(known[index])
    # Played moves are public, and so are the cards a take took (they were the pile).
    for _seat, text in frame["moves"]:
        allowed |= set(CARD.findall(text))
    if frame["last_move"] is not None:
        allowed |= set(frame["last_move"]["taken"])
    seen = set(CARD.findall(json.dumps(frame)))
    assert seen <= allowed, (frame["ply"], viewer, seen - allowed)


# A table of three and one of four, each with people and AI seats side by side and a
# spectator: every kind of receiver, in deals whose whole games are short (a game's length
# varies fivefold among the deals tried, and each of its plies costs a round trip).
@pytest.mark.parametrize(("seats", "seed"), [("PAP", 6), ("PAPA", 5)])
def test_no_frame_of_a_table_shows_a_card_its_receiver_may_not_know(
        asgi_server, celery_worker, make_user, sockets_settled, seats, seed):
    players, receivers = [], []
    for index, kind in enumerate(seats):
        if kind == "A":
            players.append(Player(ai_level=1 + index % 2))
        else:
            user = make_user()
            players.append(Player(user=user))
            receivers.append((index, session_cookie_for(user)))
    receivers.append((None, ""))  # a spectator, not logged in
    match = services.match_create(players=players, seed=seed, trumps="SHDC"[: len(seats)])

    streams = asyncio.run(_play(asgi_server.extra["url"], match.pk, receivers, seed))

    match = Match.objects.get(pk=match.pk)
    assert match.status == Status.FINISHED
    game = match_game(match=match)
    assert game is not None
    for (viewer, _cookie), frames in zip(receivers, streams, strict=True):
        states = [f for f in frames if f["type"] == "state"]
        assert states[-1]["status"] == Status.FINISHED
        for frame in states:
            assert frame["you"] == viewer
            _check_frame(frame, viewer, game)
        for frame in frames:
            if frame["type"] != "state":  # answers (ok, error) carry no card at all
                assert not CARD.findall(json.dumps(frame)), frame


@pytest.mark.parametrize("n", [3, 4])
def test_the_replay_of_a_table_being_played_shows_each_viewer_only_what_they_know(
        make_user, n):
    users = [make_user() for _ in range(n)]
    # Real instants: the worker's deadline watch (this module commits) must not find the
    # people gone since an instant long past and hand their seats to the AI.
    match = play_match([Player(user=u) for u in users], seed=12 + n, moves=25,
                       start=timezone.now())
    assert not match.is_over
    game = match_game(match=match)
    for viewer in [None, *range(n)]:
        replay = replay_of_match(match=match, viewer_seat=viewer).data
        assert replay["record_url"] is None
        for position in replay["positions"]:
            known, hidden = visible_hands(game.position_at(position["ply"]), viewer)
            for seat, (cards, hidden_count) in enumerate(position["hands"]):
                # A hand is its cards written together ("7C9CTC").
                shown = {cards[i:i + 2] for i in range(0, len(cards), 2)}
                assert shown == _cards(known[seat]), (position["ply"], viewer, seat)
                assert hidden_count == hidden[seat]
    services.match_resign(match_id=match.pk, seat=match.to_move)
    over = replay_of_match(match=Match.objects.get(pk=match.pk)).data
    # Once the game is over its replay shows every hand.
    assert all(hidden == 0 for p in over["positions"] for _cards_, hidden in p["hands"])
