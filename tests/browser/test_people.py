"""People in a real Chromium against a real daphne: friends who see each other come online,
challenge in one click and start a game, a block that stops a challenge; game chat with a
quick phrase read in another language, a spectator's line that never reaches the players,
a muted player who is told until when and cannot send, and reports of a line and of a
player that reach the staff's queue."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model

from accounts.moderation import user_mute
from games.play import services
from games.play.services import Player
from tests.browser.game_page import match_id_of
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the server first, then let the ORM run beside Playwright."""


@pytest.fixture(autouse=True)
def _servers_quiet_before_the_flush() -> Iterator[None]:
    yield
    wait_until_servers_are_quiet()


def _friend(page, name: str):
    return page.locator(f'[data-testid=friend][data-name="{name}"]')


def _users(*names: str):
    return [get_user_model().objects.create_user(name, password="pw-Xk39-long")
            for name in names]


def test_friends_see_each_other_online_play_and_a_block_stops_a_challenge(user_page):
    anna_user, boris_user = _users("anna", "boris")
    anna, boris = user_page(anna_user), user_page(boris_user)
    anna.goto("/@/boris")
    anna.get_by_test_id("follow").click()
    anna.get_by_test_id("unfollow").wait_for()
    boris.goto("/@/anna")
    boris.get_by_test_id("follow").click()
    boris.get_by_test_id("friends-badge").wait_for()

    # Anna's page, open since before they became friends, hears of it over the site socket.
    anna.get_by_test_id("friends-summary").click()
    _friend(anna, "boris").and_(anna.locator("[data-online=true]")).wait_for()
    boris.get_by_test_id("friends-summary").click()
    _friend(boris, "anna").and_(boris.locator("[data-online=true]")).wait_for()

    # One click challenges; the friend accepts and both play, which the list shows.
    _friend(boris, "anna").get_by_test_id("friend-challenge").click()
    boris.get_by_test_id("challenge").wait_for()
    anna.goto(boris.url)
    anna.get_by_test_id("challenge-accept").click()
    match_id = match_id_of(anna)
    assert match_id_of(boris) == match_id
    anna.get_by_test_id("friends-summary").click()
    watch = _friend(anna, "boris").get_by_test_id("friend-watch")
    watch.wait_for()
    assert watch.get_attribute("href").endswith(f"/{match_id}/")

    anna.goto("/@/boris")
    anna.get_by_test_id("block").click()
    anna.get_by_test_id("unblock").wait_for()
    boris.goto("/challenge/new/?to=anna")
    boris.get_by_test_id("challenge-submit").click()
    boris.get_by_text("You cannot challenge this player.").wait_for()


def _lines(page) -> list[str]:
    lines = page.get_by_test_id("chat-lines")
    return lines.locator("[data-testid=chat-text-shown]").all_inner_texts()


def test_chat_phrases_translated_rooms_apart_and_a_mute_told(user_page):
    anna_user, boris_user, carla_user = _users("anna", "boris", "carla")
    boris_user.language = "ru"
    boris_user.save(update_fields=["language"])
    match = services.match_create(players=[Player(user=anna_user), Player(user=boris_user)],
                                  seed=7, dealer=1, trumps="SH")
    anna, boris, carla = (user_page(user) for user in (anna_user, boris_user, carla_user))
    for page in (anna, boris, carla):
        page.goto(f"/game/{match.pk}/")
        page.get_by_test_id("chat-phrases").locator("button").first.wait_for()

    anna.get_by_test_id("phrase-good_game").click()
    boris.get_by_test_id("chat-lines").get_by_text("Хорошая игра!").wait_for()
    anna.get_by_test_id("chat-lines").get_by_text("Good game!").wait_for()
    assert carla.get_by_test_id("chat-title").inner_text() == "Spectators chat"

    carla.get_by_test_id("chat-text").fill("play the queen!")
    carla.get_by_test_id("chat-send").click()
    carla.get_by_test_id("chat-lines").get_by_text("play the queen!").wait_for()
    anna.get_by_test_id("phrase-hello").click()
    boris.get_by_test_id("chat-lines").get_by_text("Привет!").wait_for()
    # The players' lines came in order; the spectator's, sent before, never came.
    assert _lines(boris) == ["Хорошая игра!", "Привет!"]
    assert "play the queen!" not in _lines(anna)
    assert _lines(carla) == ["play the queen!"]

    user_mute(users=get_user_model().objects.filter(pk=boris_user.pk), minutes=60)
    boris.get_by_test_id("phrase-thanks").click()
    notice = boris.get_by_test_id("chat-notice")
    notice.filter(has_text=re.compile("Вам запрещено писать в чат до")).wait_for()
    assert boris.get_by_test_id("phrase-hello").is_disabled()
    boris.reload()
    notice.filter(has_text=re.compile("до")).wait_for()
    assert boris.get_by_test_id("phrase-good_game").is_disabled()
    anna.get_by_test_id("phrase-well_played").click()
    anna.get_by_test_id("chat-lines").get_by_text("Well played!").wait_for()
    assert "Thank you!" not in _lines(anna)

    # A muted player may still report a line; the other reports a player from the chat panel.
    anna.get_by_test_id("chat-text").fill("you play like a potato")
    anna.get_by_test_id("chat-send").click()
    potato = boris.get_by_test_id("chat-line").filter(has_text="you play like a potato")
    potato.get_by_test_id("chat-report").click()
    notice.filter(has_text="Жалоба отправлена").wait_for()
    anna.get_by_test_id("report-player-select").select_option("boris")
    anna.get_by_test_id("report-player-send").click()
    anna.get_by_test_id("chat-notice").filter(has_text="Reported").wait_for()
    assert carla.get_by_test_id("report-player-select").locator("option").all_inner_texts() \
        == ["anna", "boris"]

    staff = user_page(get_user_model().objects.create_user(
        "staff", password="pw-Xk39-long", is_staff=True, is_superuser=True))
    staff.goto("/admin/games/chatreport/")
    rows = staff.locator("#result_list tbody tr")
    cells = [[row.locator(f"td.field-{field}").inner_text()
              for field in ("reported", "reporter", "message_text")] for row in rows.all()]
    assert sorted(cells) == [["anna", "boris", "you play like a potato"],
                             ["boris", "anna", "—"]]
