"""The site's pages in a real Chromium, at desktop and phone width: the profile's rating chart
in a language with a decimal comma, the leaderboard with its provisional players, the error
pages in the site's layout and language, the favicon, names as links, the challenge link's
copy button and the lockout page's words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import PlayerRating
from tests.accounts.conftest import finish_game
from tests.browser.test_security import watched
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
expect.set_options(timeout=15_000)

WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside Playwright (`tests/browser/conftest.py`)."""


def make_users(*names: str):  # type: ignore[no-untyped-def]
    return [get_user_model().objects.create_user(name, password="pw-Xk39-long")
            for name in names]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["pl", "ru"])
def test_the_rating_chart_in_a_language_with_a_decimal_comma(user_page, width, language):
    anna, bob = make_users(f"anna_{language}_{width}", f"bob_{language}_{width}")
    now = timezone.now()
    ratings = [1513.3, 1477.8, 1530.1, 1561.6, 1542.9, 1588.2, 1570.4]
    for i, rating in enumerate(ratings):
        finish_game(anna, bob, "win" if i % 2 else "loss", rated=True,
                    finished_at=now - timedelta(days=10 - i), rating_before=1500.0,
                    rating_after=rating)
    page = user_page(anna, viewport=WIDTHS[width], locale=language,
                     extra_http_headers={"Accept-Language": language})
    problems = watched(page)
    page.goto(f"/@/{anna.username}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    dots = page.locator("[data-testid=rating-chart] circle.dot")
    expect(dots).to_have_count(len(ratings))
    # Drawn where the numbers say: spread from left to right, the best rating highest.
    boxes = [dots.nth(i).bounding_box() for i in range(len(ratings))]
    assert all(box is not None and box["width"] > 0 for box in boxes)
    xs = [box["x"] for box in boxes]
    assert xs == sorted(xs)
    assert xs[-1] - xs[0] > 100
    ys = [box["y"] for box in boxes]
    assert ys.index(min(ys)) == ratings.index(max(ratings))
    line = page.locator("[data-testid=rating-chart] polyline").bounding_box()
    assert line is not None
    assert line["width"] > 100
    assert problems == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_leaderboard_shows_provisional_players_below_the_established(new_page, width):
    strong, keen, fresh = make_users(f"strong_{width}", f"keen_{width}", f"fresh_{width}")
    now = timezone.now()
    for user, rating, deviation, games in [(strong, 1720, 60, 30), (keen, 1880, 160, 6),
                                           (fresh, 1500, 500, 0)]:
        PlayerRating.objects.update_or_create(user=user, defaults={
            "rating": rating, "deviation": deviation, "games": games, "last_rated_at": now})
    page = new_page(viewport=WIDTHS[width])
    problems = watched(page)
    page.goto("/leaderboard/")
    established = page.get_by_test_id("leaderboard-established")
    provisional = page.get_by_test_id("leaderboard-provisional")
    expect(established.get_by_role("link", name=strong.username)).to_be_visible()
    expect(provisional.get_by_role("link", name=keen.username)).to_be_visible()
    expect(provisional).to_contain_text("1880?")
    expect(page.get_by_role("link", name=fresh.username)).to_have_count(0)
    expect(page.get_by_test_id("leaderboard-rule")).to_contain_text("after 11 to 16 rated games")
    above = established.bounding_box()
    below = provisional.bounding_box()
    assert above is not None
    assert below is not None
    assert below["y"] >= above["y"] + above["height"] - 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert problems == []
