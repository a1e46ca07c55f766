"""The streams over the real server: a spectator's stream of a table of three shows what the
board shows a spectator and follows each move; a player's event stream tells of a challenge
and of its withdrawal, of a game starting and of its end."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from accounts.models import TokenScope
from accounts.tokens import token_create
from games.matchmaking import services as matchmaking
from games.play import selectors, services
from games.play.services import Player
from games.rules import visible_hands
from games.rules.cards import CARD_NAMES, mask_codes
from tests.support.matches import moves_played

pytestmark = pytest.mark.django_db(transaction=True)


def lines(url: str, token: str | None = None) -> Iterator[dict[str, Any]]:
    request = urllib.request.Request(url)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    response = urllib.request.urlopen(request, timeout=30)
    assert response.headers["Content-Type"] == "application/x-ndjson"
    with response:
        for raw in response:
            if raw.strip():
                yield json.loads(raw)


def test_a_spectator_sees_what_the_board_shows_a_spectator(asgi_server, make_user):
    match = services.match_create(players=[Player(user=make_user()) for _ in range(3)],
                                  trumps="CDH", seed=3, dealer=0)
    stream = lines(f"{asgi_server.extra['url']}/api/stream/game/{match.pk}")
    full = next(stream)
    game = selectors.match_game(match=match)
    assert game is not None
    known, hidden = visible_hands(game.state, None)
    assert (full["type"], full["you"], full["legal_moves"]) == ("gameFull", None, [])
    assert [seat["hand"] for seat in full["seats"]] == [
        [CARD_NAMES[code] for code in mask_codes(mask)] for mask in known]
    assert [seat["hidden"] for seat in full["seats"]] == list(hidden)
    assert sum(hidden) > 0  # the hands are not open to a spectator
    moves_played(match, 1)
    state = next(stream)
    assert (state["type"], state["ply"]) == ("gameState", 1)


def test_the_event_stream_tells_of_challenges_and_games(asgi_server, make_user):
    bot, person = make_user("droid"), make_user("anna")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    token = token_create(user=bot, name="b", scopes=[TokenScope.CHALLENGE]).text
    events = lines(f"{asgi_server.extra['url']}/api/stream/event", token)
    first = matchmaking.challenge_create(challenger=person, challenged=bot,
                                         time_control="3+2", rated=False)
    seen = next(events)
    assert (seen["type"], seen["challenge"]["id"]) == ("challenge", first.token)
    assert seen["challenge"]["challenger"]["name"] == "anna"
    matchmaking.challenge_decline(user=person, token=first.token)
    assert next(events)["type"] == "challengeCanceled"
    second = matchmaking.challenge_create(challenger=person, challenged=bot,
                                          time_control="3+2", rated=False)
    assert next(events)["challenge"]["id"] == second.token
    match = matchmaking.challenge_accept(user=bot, token=second.token)
    started = next(events)
    assert (started["type"], started["game"]["id"]) == ("gameStart", match.pk)
    assert started["game"]["players"][started["game"]["seat"]]["title"] == "BOT"
    services.match_abort(match_id=match.pk, seat=0)
    finished = next(events)
    assert (finished["type"], finished["game"]["status"]) == ("gameFinish", "aborted")
