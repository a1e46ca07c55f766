"""Notifications in a real Chromium against a real daphne (PostgreSQL, Redis): a challenge
made while the other player is on their profile page appears there at once with its accept,
the header's badge and the alert follow live on every page of theirs, and accepting from the
header's list starts the match."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.game_page import match_id_of, players_of
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


def listening(page) -> None:
    """Wait until the page's site socket has sent its first list (it is then in the group)."""
    page.locator("[data-testid=notify-list] li").first.wait_for(state="attached")


def test_a_challenge_reaches_the_profile_page_with_accept_and_the_badge_follows_live(
    player_page,
):
    anna, boris = player_page("anna"), player_page("boris")
    errors: list[str] = []
    boris.on("pageerror", lambda error: errors.append(str(error)))
    boris.on("console", lambda message: message.type == "error" and errors.append(message.text))
    boris.goto("/@/boris")
    other_tab = boris.context.new_page()
    other_tab.goto("/")
    for page in (boris, other_tab):
        listening(page)
        assert page.get_by_test_id("notify-badge").is_hidden()
    boris.evaluate("""() => { window.heard = [];
      document.addEventListener("yourtrumps:sound", (e) => window.heard.push(e.detail.name)); }""")

    anna.goto("/challenge/new/")
    anna.get_by_label("Opponent").fill("boris")
    anna.get_by_label("Time control").select_option("1+1")
    anna.get_by_test_id("challenge-submit").click()

    alert = boris.get_by_test_id("notify-alert")
    alert.wait_for()
    assert "anna" in alert.inner_text()
    assert boris.evaluate("() => window.heard") == ["challenge"]  # and it was heard
    for page in (boris, other_tab):
        badge = page.get_by_test_id("notify-badge")
        badge.wait_for()
        assert badge.inner_text() == "1"

    # Read on one page: on the other the badge goes out and the alert goes away at once.
    other_tab.get_by_test_id("notify-button").click()
    item = other_tab.get_by_test_id("notify-item").first
    assert "anna" in item.inner_text()
    other_tab.get_by_test_id("notify-read-all").click()
    boris.get_by_test_id("notify-badge").wait_for(state="hidden")
    alert.wait_for(state="detached")
    other_tab.close()

    # Still open, the challenge is accepted from the header's list.
    assert errors == []  # no exception, nothing the Content-Security-Policy refused
    boris.get_by_test_id("notify-button").click()
    boris.get_by_test_id("notify-list").get_by_test_id("notify-accept").click()
    match_id = match_id_of(boris)
    assert match_id_of(anna) == match_id
    assert players_of(match_id) == {"anna", "boris"}
    assert re.search(r"/game/\d+/$", boris.url)
