"""The reference bot client (`python -m games.ai.bot`) against the real site: two of them, at
two levels, play a rated duel to its end over the Bot API, while the server they talk to is
killed and another started in its place; they reconnect and finish. The game, its moves and
the ratings are then as the database says a finished rated duel is."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request

import pytest

from accounts.models import PlayerRating, TokenScope
from accounts.tokens import token_create
from games.play import services
from games.play.models import Match, Move, Status
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.support.processes import free_port, start_daphne

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Six cards each, seat 0 to lead: a game of a dozen plies or two.
DEAL = "SH 7C9D6HJSQD8H/6D8CKDTH9SAC - 0 -"


def bot_account(make_user, name: str) -> str:
    user = make_user(name)
    user.is_bot = True
    user.save(update_fields=["is_bot"])
    return token_create(user=user, name="bot",
                        scopes=[TokenScope.BOT, TokenScope.CHALLENGE]).text


def run_bot(url: str, token: str, level: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "games.ai.bot", "--token", token, "--url", url,
         "--level", str(level), "--games", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.1)


def test_two_bots_play_a_rated_duel_to_the_end_across_a_server_restart(
        server_env, process_logs, make_user):
    first_token = bot_account(make_user, "bot-level2")
    second_token = bot_account(make_user, "bot-level1")
    first, second = (PlayerRating.objects.model._meta.get_field("user").related_model
                     .objects.get(username=name) for name in ("bot-level2", "bot-level1"))
    match = services.match_create(players=[Player(user=first), Player(user=second)],
                                  start_tpn=DEAL, dealer=1, rated=True,
                                  time_control=TimeControl(180, 2))
    port = free_port()
    server = start_daphne(server_env, process_logs, port=port)
    bots: list[subprocess.Popen[str]] = []
    try:
        url = f"http://127.0.0.1:{port}"
        bots.append(run_bot(url, first_token, 2))
        # The first bot leads; then it waits for the second, which is not there yet.
        wait_for(lambda: Move.objects.filter(match=match).exists())
        # Its event stream open, it is listed among the bots online.
        with urllib.request.urlopen(f"{url}/bots/") as page:
            listed = page.read().decode()
        assert "bot-level2" in listed
        assert "bot-level1" not in listed
        server.kill()
        server = start_daphne(server_env, process_logs, port=port)
        bots.append(run_bot(url, second_token, 1))
        outputs = [bot.communicate(timeout=120) for bot in bots]
    finally:
        for bot in bots:
            bot.kill()
        server.stop()
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    assert "reconnecting" in outputs[0][1]
    match.refresh_from_db()
    assert match.status == Status.FINISHED
    moves = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", flat=True))
    assert moves == list(range(1, match.ply + 1))
    seats = list(match.seats.order_by("index"))
    assert {seat.result for seat in seats} in ({"win", "loss"}, {"draw"})
    for seat in seats:
        assert seat.rating_before == 1500
        assert seat.rating_after is not None
        assert seat.rating_after != seat.rating_before or match.result == "draw"
        assert PlayerRating.objects.get(user=seat.user, mode="duel").games == 1
    assert not Match.objects.exclude(pk=match.pk).exists()
