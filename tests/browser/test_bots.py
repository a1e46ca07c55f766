"""A person plays a bot in the browser: the reference bot (`python -m games.ai.bot`, at level 2
as in the bots' rated games of docs/api.md) plays its seat over the Bot API while the person
plays theirs on the board, which marks the bot BOT, to the end of a rated game: both ratings
move, and the game's record reads back through the API."""

from __future__ import annotations

import subprocess
import sys

import pytest
from playwright.sync_api import expect

from accounts.models import PlayerRating, TokenScope
from accounts.tokens import token_create
from games.play import services
from games.play.models import Match, Status
from games.play.services import Player
from games.play.time_control import TimeControl
from games.replays.services import record_export, record_import
from tests.browser.game_page import play_first_legal
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

# A few cards each, the person (seat 0) to lead.
DEAL = "SH 7C9DJS/6D8CKD - 0 -"


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the server first, then let the ORM run beside Playwright."""


def test_a_person_plays_the_reference_bot_to_the_end(user_page, make_user, asgi_server):
    person, bot = make_user("anna"), make_user("droid")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    token = token_create(user=bot, name="bot", scopes=[TokenScope.BOT]).text
    match = services.match_create(players=[Player(user=person), Player(user=bot)],
                                  start_tpn=DEAL, dealer=1, rated=True,
                                  time_control=TimeControl(180, 2))
    client = subprocess.Popen(
        [sys.executable, "-m", "games.ai.bot", "--token", token,
         "--url", asgi_server.extra["url"], "--level", "2", "--games", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        page = user_page(person)
        page.goto(f"/game/{match.pk}/")
        expect(page.locator("[data-testid=seat-1] .bot-title")).to_have_text("BOT")
        game = page.locator("#game")
        for _turn in range(100):
            page.wait_for_function(
                "() => { const g = document.getElementById('game');"
                " return g.dataset.status !== 'playing' || g.querySelector("
                "'[data-part=bottom] button.card.playable, [data-testid=take]'); }")
            if game.get_attribute("data-status") != "playing":
                break
            ply = game.get_attribute("data-ply")
            play_first_legal(page)
            expect(game).not_to_have_attribute("data-ply", ply)
        expect(page.get_by_test_id("result-title")).to_be_visible()
        _out, err = client.communicate(timeout=60)
    finally:
        client.kill()
    assert client.returncode == 0, err
    match.refresh_from_db()
    assert match.status == Status.FINISHED
    assert Match.objects.get(pk=match.pk).ply == len(match.moves.all())
    for seat in match.seats.all():
        assert (seat.rating_before, seat.result) != (None, "")
        assert seat.rating_after != seat.rating_before or match.result == "draw"
        assert PlayerRating.objects.get(user=seat.user, mode="duel").games == 1
    record = record_import(text=record_export(match=match)).game
    assert [str(move) for move in record.moves] == list(
        match.moves.order_by("ply").values_list("text", flat=True))
    outcome = record.outcome()
    assert outcome is not None
    assert outcome.loser == match.loser_seat
