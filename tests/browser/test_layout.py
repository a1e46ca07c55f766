"""The pages' layout in a real Chromium at a wide screen's width (1280 px) and a phone's (390
px), in English and in Basque (the longest words of the four languages)."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("LAYOUT_SHOTS", "")


@pytest.fixture(scope="module", autouse=True)
def _catalogues_compiled() -> None:
    call_command("compilemessages", ignore_patterns=[".venv", "tests"], verbosity=0)


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(_catalogues_compiled: None, asgi_server: ManagedProcess,
                      celery_worker: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the servers first, then let the ORM run beside sync Playwright's event loop."""


def shot(page, name: str, **options) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", **options)


# How many rows the header's parts lie on (each part's middle, 12 px apart counts as a row).
HEADER_ROWS = """() => {
  const parts = [...document.querySelectorAll(
    '.site-header .brand, .site-header .menu-button, .site-nav > ul > li, .account-state > *')]
    .filter((part) => part.getClientRects().length);
  const middles = parts.map((part) => { const r = part.getBoundingClientRect(); return (r.top + r.bottom) / 2; })
    .sort((a, b) => a - b);
  return middles.filter((middle, i) => i === 0 || middle - middles[i - 1] > 12).length;
}"""


def assert_header_one_row(page) -> None:
    page.wait_for_function("document.fonts.status === 'loaded'")
    assert page.evaluate(HEADER_ROWS) == 1
    header = page.locator(".site-header")
    assert header.evaluate("(h) => h.scrollWidth <= h.clientWidth")
    # No part of it wraps its words either: the header is one line of text high.
    assert header.bounding_box()["height"] < 60


def assert_no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("language", ["en", "eu"])
def test_the_header_is_one_row_and_the_lobby_says_why_it_cannot_create(
        user_page, make_user, language):
    """The signed-in header at 1280 px: one row, the links that do not fit under "More"; at 390
    px the menu. The lobby of a person playing a live game: no live table or seek, and why."""
    user = make_user("alexandra")
    user.language = language
    user.save(update_fields=["language"])
    for name, viewport in (("wide", WIDE), ("phone", PHONE)):
        page = user_page(user, viewport=viewport)
        page.goto("/lobby/")
        assert_header_one_row(page)
        assert_no_sideways_scroll(page)
        shot(page, f"header-{language}-{name}")
        if name == "phone":
            page.get_by_test_id("menu-button").click()
            expect(page.get_by_test_id("nav-leaderboard")).to_be_visible()
        elif page.get_by_test_id("nav-more").is_visible():
            # Every link is one click away: those that did not fit are in the "More" list.
            expect(page.get_by_test_id("nav-leaderboard")).to_be_hidden()
            page.get_by_test_id("nav-more-button").click()
            expect(page.get_by_test_id("nav-more-list").get_by_test_id("nav-leaderboard")
                   ).to_be_visible()
            shot(page, f"header-{language}-{name}-more")
        else:
            expect(page.get_by_test_id("nav-leaderboard")).to_be_visible()
