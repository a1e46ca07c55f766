"""A bot account is marked BOT wherever the site names it: beside its name on the
leaderboard, in the game history, among the games to watch and on a challenge's page (the
board and the profile have their own tests: `test_endpoints`, the browser's `test_bots`)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.matchmaking import services as matchmaking
from games.play import services
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.games.conftest import SHORT_DUEL

pytestmark = pytest.mark.django_db


def marked(page: str, name: str) -> bool:
    """Whether `name` on the page is followed by the BOT mark."""
    return re.search(rf">?{name}(</a>)? <span class=\"bot-title\">BOT</span>", page) is not None


def test_a_bot_is_marked_bot_wherever_the_site_names_it(make_user):
    bot, anna, boris = make_user("droid"), make_user("anna"), make_user("boris")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    rated = services.match_create(players=[Player(user=bot), Player(user=anna)],
                                  start_tpn=SHORT_DUEL, dealer=1, rated=True,
                                  time_control=TimeControl(180, 2))
    for seat, move, ply in ((0, "7C", 0), (1, "8C-KD", 1), (0, "+3", 2), (1, "6D", 3)):
        services.move_apply(match_id=rated.pk, seat=seat, move=move, expected_ply=ply)
    services.match_create(players=[Player(user=bot), Player(user=boris)], dealer=1)
    challenge = matchmaking.challenge_create(challenger=bot, challenged=anna,
                                             time_control="3+2", rated=False)
    client = Client()
    client.force_login(anna)
    pages = {
        "leaderboard": client.get(reverse("matchmaking:leaderboard") + "?mode=duel"),
        "history": client.get(reverse("replays:player_history", args=["anna"])),
        "watch": client.get(reverse("games:watch")),
        "challenge": client.get(reverse("matchmaking:challenge", args=[challenge.token])),
    }
    for where, response in pages.items():
        assert response.status_code == 200, where
        page = response.content.decode()
        assert marked(page, "droid"), where
        assert not marked(page, "anna"), where
        assert not marked(page, "boris"), where
