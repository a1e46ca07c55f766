"""The site's pages in a real Chromium, at desktop and phone width: the profile's rating chart
in a language with a decimal comma, the leaderboard with its provisional players, the error
pages in the site's layout and language, the favicon, names as links, the challenge link's
copy button and the lockout page's words."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import PlayerRating
from games.matchmaking import services as matchmaking
from games.play import services
from games.play.services import Player
from tests.accounts.conftest import finish_game
from tests.browser.test_security import watched
from tests.games.replays.conftest import play_match
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


@pytest.mark.parametrize("width", WIDTHS)
def test_a_challenge_link_is_copied_with_one_click(user_page, width):
    (anna,) = make_users(f"anna_copy_{width}")
    challenge = matchmaking.challenge_create(challenger=anna, challenged=None,
                                             time_control="3+2", rated=False)
    page = user_page(anna, viewport=WIDTHS[width],
                     permissions=["clipboard-read", "clipboard-write"])
    problems = watched(page)
    page.goto(f"/challenge/{challenge.token}/")
    share = page.get_by_test_id("share-url")
    copy = page.get_by_test_id("copy-share-url")
    expect(copy).to_be_visible()
    field, button = share.bounding_box(), copy.bounding_box()
    assert field is not None
    assert button is not None
    assert button["x"] + button["width"] <= WIDTHS[width]["width"]
    copy.click()
    expect(page.get_by_test_id("copy-status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == share.input_value()
    assert share.input_value().endswith(f"/challenge/{challenge.token}/")
    # The expiry's time ends the sentence with its own full stop ("3:07 p.m."), never two.
    assert ".." not in page.locator("main").inner_text()
    assert problems == []


def test_the_lockout_page_names_what_is_locked(new_page):
    (anna,) = make_users("anna_locked")
    page = new_page(viewport=WIDTHS["phone"])
    problems = watched(page)
    for _ in range(6):
        page.goto("/accounts/login/")
        page.fill("input[name=username]", anna.username)
        page.fill("input[name=password]", "wrong password 1")
        page.locator("form:has(input[name=username]) button[type=submit]").click()
        page.wait_for_load_state()
    expect(page.get_by_test_id("locked-title")).to_have_text(
        "This account is locked at your address")
    expect(page.get_by_test_id("locked-out")).to_contain_text(
        "From another network you can still log in")
    expect(page.get_by_test_id("locked-advice")).to_contain_text("lifts the lock at once")
    expect(page.get_by_role("link", name="Reset my password")).to_be_visible()
    # The failed log-ins answered 200 and the lock 429: nothing else went wrong.
    assert [p for p in problems if "429" not in p] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_missing_page_in_the_sites_layout_and_language_with_its_icon(new_page, width):
    page = new_page(viewport=WIDTHS[width], locale="pl",
                    extra_http_headers={"Accept-Language": "pl"})
    problems = watched(page)
    response = page.goto("/game/999999999/")
    assert response is not None
    assert response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.get_by_role("heading", level=1)).to_have_text("Nie ma takiej strony")
    expect(page.locator(".site-header .brand")).to_be_visible()
    home = page.url.split("/game/")[0] + "/"
    page.get_by_role("link", name="Przejdź na stronę główną").click()
    expect(page).to_have_url(home)
    # The icon the pages name is the project's SVG, and the old address leads to it.
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon is not None
    fetched = page.request.get(icon)
    assert fetched.status == 200
    assert fetched.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in fetched.text()
    assert page.request.get("/favicon.ico").text() == fetched.text()
    assert [p for p in problems if "404" not in p] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_finish_it_first_links_to_the_game_to_finish(user_page, width):
    (anna,) = make_users(f"anna_busy_{width}")
    match = services.match_create(players=[Player(user=anna), Player(ai_level=1)],
                                  trumps="SH", seed=5, dealer=1)
    page = user_page(anna, viewport=WIDTHS[width])
    problems = watched(page)
    page.goto("/")
    page.locator("button[name=pool][value='3+2']").click()
    expect(page.locator(".messages")).to_contain_text("finish it first")
    page.get_by_test_id("refusal-link").click()
    expect(page).to_have_url(re.compile(rf"/game/{match.pk}/$"))
    expect(page.locator("#game")).to_be_visible()
    assert problems == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_replay_shows_long_names_whole(user_page, width):
    walker, other = make_users(f"walkthrough_{width[:5]}", f"wanderlust_{width[:5]}")
    match = play_match([Player(user=walker), Player(user=other)], moves=8, end="resign")
    page = user_page(walker, viewport=WIDTHS[width])
    problems = watched(page)
    page.goto(f"/game/{match.pk}/replay")
    seats = page.locator(".replay-moves .move-seat")
    expect(seats.first).to_be_visible()
    shown = seats.evaluate_all("""nodes => nodes.map(n => ({
        text: n.textContent, cut: n.scrollWidth > n.clientWidth + 1}))""")
    assert {entry["text"] for entry in shown} == {walker.username, other.username}
    assert not any(entry["cut"] for entry in shown)
    assert problems == []
