"""Watching in a real Chromium: the watch page lists the public games in progress, the
best-rated first, and the TV shows the top game as a spectator sees it, then moves on to the
next when it ends."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import PlayerRating
from games.play import services
from games.play.services import Player
from tests.browser.test_security import watched
from tests.support.matches import moves_played
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside Playwright (`tests/browser/conftest.py`)."""


def live_duel(first: str, second: str, rating: float, seed: int):  # type: ignore[no-untyped-def]
    users = [get_user_model().objects.create_user(name, password="pw-Xk39-long")
             for name in (first, second)]
    PlayerRating.objects.update_or_create(user=users[0], defaults={
        "rating": rating, "deviation": 60, "games": 30})
    match = services.match_create(players=[Player(user=u) for u in users], trumps="SH",
                                  seed=seed, dealer=1)
    moves_played(match, 2)
    return match


def shown_match(page) -> int | None:  # type: ignore[no-untyped-def]
    """The match the page shows (None while a new page is loading)."""
    try:
        return json.loads(page.locator("#board-config").text_content(timeout=2000))["matchId"]
    except Exception:  # the page is being replaced
        return None


@pytest.mark.parametrize("width", WIDTHS)
def test_the_watch_page_and_the_tv_follow_the_top_game(new_page, width):
    top = live_duel(f"ace_{width}", f"bee_{width}", 2100, seed=3)
    second = live_duel(f"cid_{width}", f"dot_{width}", 1700, seed=4)
    page = new_page(viewport=WIDTHS[width])
    problems = watched(page)

    page.goto("/watch/")
    rows = page.get_by_test_id("watch-row")
    expect(rows.first).to_have_attribute("data-match", str(top.pk))
    expect(rows.nth(1)).to_have_attribute("data-match", str(second.pk))
    expect(rows.first).to_contain_text("2100")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    tv_url = page.url.split("/watch/")[0] + "/tv/"
    page.get_by_test_id("tv-link").click()
    expect(page).to_have_url(tv_url)
    assert shown_match(page) == top.pk
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    # A spectator sees no hidden hand: in the duel both hands are open to all, so the board
    # shows the cards of both, and no action of a player.
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)

    services.match_resign(match_id=top.pk, seat=0)
    expect(page.locator("#game")).to_have_attribute("data-status", "finished")
    # The end stays in view a moment, then the TV moves on to the next top game.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and shown_match(page) != second.pk:
        page.wait_for_timeout(250)
    assert shown_match(page) == second.pk
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    assert problems == []
