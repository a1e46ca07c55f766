"""The puzzle of the day on the home page and the profile's puzzles in a real Chromium, at
phone and desktop width, in other languages: inside the page's width, under the site's
policy (no inline style or script), the picture's cards where the position has them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.puzzles.models import Puzzle, Source, theme_bits
from games.puzzles.services import puzzle_attempt_record
from tests.browser.test_security import watched
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
expect.set_options(timeout=15_000)

CASES = {"phone-ru": ({"width": 390, "height": 844}, "ru"),
         "desktop-eu": ({"width": 1280, "height": 800}, "eu")}
LINE = [{"move": "AH", "player": True, "accepted": ["AH"]}]


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside Playwright (`tests/browser/conftest.py`)."""


def _fits(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("case", CASES)
def test_the_puzzle_of_the_day_and_the_profiles_puzzles(user_page, case):
    viewport, language = CASES[case]
    themes = ("take_to_win", "long_line")
    puzzles = [Puzzle.objects.create(
        tpn=f"DH KC6D{7 + index}H/ACAH 9S 1 -", source=Source.SELF_PLAY, solution=LINE,
        themes=list(themes), theme_bits=theme_bits(themes), rating=1555.0)
        for index in range(3)]
    anna = get_user_model().objects.create_user(f"anna_{case}", password="pw-Xk39-long")
    for index, puzzle in enumerate(puzzles):
        puzzle_attempt_record(puzzle_id=puzzle.pk, user=anna, solved=index != 1)
    page = user_page(anna, viewport=viewport, locale=language,
                     extra_http_headers={"Accept-Language": language})
    problems = watched(page)
    page.goto("/")
    block = page.get_by_test_id("daily-puzzle")
    expect(block).to_be_visible()
    expect(block.locator("[data-testid=daily-hand] .daily-card")).to_have_count(2)
    expect(block.locator("[data-testid=daily-other] .daily-card")).to_have_count(3)
    expect(block.locator("[data-testid=daily-pile] .daily-card")).to_have_text("9\u2660")
    box = block.bounding_box()
    assert box is not None
    assert 0 <= box["x"] <= box["x"] + box["width"] <= viewport["width"]
    assert _fits(page)
    page.goto(f"/@/{anna.username}")
    section = page.get_by_test_id("puzzles")
    expect(section.locator("[data-testid=puzzle-rating-chart] circle.dot")).to_have_count(3)
    expect(section.get_by_test_id("puzzle-played")).to_have_count(3)
    expect(page.get_by_test_id("puzzle-rating")).to_be_visible()
    assert _fits(page)
    assert page.evaluate("window.__violations") == []
    assert problems == []
