"""The puzzle pages in Chromium, on the live board's components and under the site's
Content-Security-Policy: solving a puzzle (rated), failing one (the right move shown, then
the solution stepped through), a streak, the daily puzzle and a theme filter, a fresh
site's puzzles and its empty pages, and the themes shown only once the play is over, at
desktop and phone width."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from accounts.models import PlayerRating, RatingMode
from games.puzzles.models import PuzzleAttempt, PuzzleStreak
from games.puzzles.shipped import puzzles_load_shipped
from tests.browser.test_security import watched
from tests.games.puzzles.made import SIX_ANSWERS, TAKE_TO_WIN, THREE_MOVES, stored
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
expect.set_options(timeout=15_000)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside Playwright (`tests/browser/conftest.py`)."""


def user(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(name, password="pw-Xk39-long")


def card(page, code: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-part=bottom] button.card[data-card='{code}']")


def fits(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_solving_a_puzzle_shows_the_reply_and_rates_the_player(user_page, width):
    anna = user(f"anna_{width}")
    puzzle = stored(THREE_MOVES)
    page = user_page(anna, **(PHONE if width == "phone" else DESKTOP))
    problems = watched(page)
    page.goto(f"/puzzles/{puzzle.pk}/")
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-outcome", "playing")
    expect(card(page, "AC")).to_be_enabled()
    card(page, "AC").click()
    expect(verdict).to_have_attribute("data-outcome", "right")
    # The defender's reply comes after the player's move, on the board and in the list.
    expect(page.locator("[data-testid=move-list] li")).to_have_count(2)
    expect(page.locator("[data-testid=pile] .card[data-card='KC']")).to_be_visible()
    expect(card(page, "AH")).to_be_enabled()
    card(page, "AH").click()
    expect(verdict).to_have_attribute("data-outcome", "solved")
    expect(page.get_by_test_id("rating-change")).to_contain_text("+")
    expect(page.locator("[data-part=bottom] button.card:enabled")).to_have_count(0)
    expect(page.get_by_test_id("next-puzzle")).to_be_visible()
    assert fits(page)
    assert PuzzleAttempt.objects.get(user=anna).solved
    assert PlayerRating.objects.get(user=anna, mode=RatingMode.PUZZLE).games == 1
    assert problems == []


def test_failing_a_puzzle_shows_the_right_move_then_the_solution(new_page):
    puzzle = stored(THREE_MOVES)
    page = new_page(**PHONE)  # a guest
    problems = watched(page)
    page.goto(f"/puzzles/{puzzle.pk}/")
    card(page, "AH").click()
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-outcome", "failed")
    expect(page.get_by_test_id("move-move")).to_have_attribute("data-move", "AH")
    expect(page.get_by_test_id("correct-move")).to_have_attribute("data-move", "AC")
    expect(page.get_by_test_id("unrated")).to_be_visible()
    # The right move is played on the board instead.
    expect(page.locator("[data-testid=pile] .card[data-card='AC']")).to_be_visible()
    page.get_by_test_id("view-solution").click()
    at = page.get_by_test_id("solution-at")
    expect(at).to_be_visible()
    expect(page.locator("[data-testid=pile] .card")).to_have_count(0)
    for ply in (1, 2, 3):
        page.get_by_test_id("solution-next").click()
        expect(at).to_contain_text(f"{ply} ")
    expect(page.get_by_test_id("solution-next")).to_be_disabled()
    expect(page.locator("[data-testid=move-list] li")).to_have_count(3)
    assert fits(page)
    assert PuzzleAttempt.objects.get(user=None).solved is False
    assert problems == []


def test_a_streak_counts_the_solves_until_the_first_miss(user_page):
    bea = user("bea_streak")
    first = stored(SIX_ANSWERS, rating=900)
    second = stored(TAKE_TO_WIN, rating=980)
    page = user_page(bea, **DESKTOP)
    problems = watched(page)
    page.goto("/puzzles/streak/")
    expect(page.get_by_test_id("streak-current")).to_have_text("0")
    assert page.url.endswith("/puzzles/streak/")
    card(page, "7S").click()
    card(page, "KS").click()  # 7S-KS: one of the interchangeable answers
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "solved")
    expect(page.get_by_test_id("streak-current")).to_have_text("1")
    expect(page.get_by_test_id("streak-best")).to_have_text("1")
    page.get_by_test_id("next-puzzle").click()
    expect(page.get_by_test_id("streak-current")).to_have_text("1")
    expect(card(page, "JD")).to_be_enabled()
    assert PuzzleStreak.objects.get(user=bea).puzzle_id == second.pk
    card(page, "JD").click()  # beating with the last card: a draw, not the win
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "failed")
    expect(page.get_by_test_id("streak-current")).to_have_text("0")
    expect(page.get_by_test_id("streak-best")).to_have_text("1")
    expect(page.get_by_test_id("streak-said")).to_be_visible()
    assert first.pk != second.pk
    assert problems == []


def test_the_daily_puzzle_is_played_from_its_page(new_page):
    puzzle = stored(THREE_MOVES)
    page = new_page(**DESKTOP)
    problems = watched(page)
    page.goto("/puzzles/daily/")
    expect(page.locator("h1")).to_have_text("Daily puzzle")
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text(str(round(puzzle.rating)))
    card(page, "AC").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "right")
    expect(card(page, "AH")).to_be_enabled()
    card(page, "AH").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "solved")
    assert problems == []


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_theme_filter_chooses_the_puzzle(user_page, width):
    cleo = user(f"cleo_{width}")
    three = stored(THREE_MOVES, rating=1500)
    take = stored(TAKE_TO_WIN, rating=1900)
    page = user_page(cleo, **(PHONE if width == "phone" else DESKTOP))
    problems = watched(page)
    page.goto("/")
    nav = page.get_by_test_id("nav-puzzles")
    if not nav.is_visible():
        page.get_by_test_id("menu-button").click()
    nav.click()
    expect(page.locator("h1")).to_have_text(f"Puzzle {three.pk}")
    page.get_by_label("Take to win").check()
    page.get_by_test_id("filter-submit").click()
    assert "/puzzles/?" in page.url
    expect(page.get_by_label("Take to win")).to_be_checked()
    expect(page.locator("h1")).to_have_text(f"Puzzle {take.pk}")
    # The next puzzle keeps the filters: none is left with that theme.
    page.get_by_test_id("take").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "right")
    assert fits(page)
    assert problems == []


@pytest.mark.parametrize("language", ["pl", "ru", "eu"])
def test_the_puzzle_page_in_every_language_at_phone_width(new_page, language):
    puzzle = stored(THREE_MOVES)
    page = new_page(**PHONE, locale=language, extra_http_headers={"Accept-Language": language})
    problems = watched(page)
    page.goto(f"/puzzles/{puzzle.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    card(page, "AH").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "failed")
    said = page.get_by_test_id("verdict").inner_text()
    assert "does not win" not in said
    assert "Puzzle failed" not in said
    assert fits(page)
    assert problems == []


def language_page(new_page, width: str, language: str):  # type: ignore[no-untyped-def]
    return new_page(**(PHONE if width == "phone" else DESKTOP), locale=language,
                    extra_http_headers={"Accept-Language": language})


def words(language: str, text: str, n: int | None = None) -> str:
    with translation.override(language):
        if n is None:
            return translation.gettext(text)
        return translation.ngettext(text, text.replace("card", "cards"), n) % {"n": n}


WIDTHS_AND_LANGUAGES = [("desktop", "en"), ("desktop", "pl"), ("phone", "ru"), ("phone", "en")]


@pytest.mark.parametrize(("width", "language"), WIDTHS_AND_LANGUAGES)
def test_a_fresh_site_offers_puzzles_and_the_empty_page_says_why(new_page, width, language):
    page = language_page(new_page, width, language)
    problems = watched(page)
    page.goto("/puzzles/")
    empty = page.get_by_test_id("no-puzzle")
    expect(empty).to_have_attribute("data-absence", "none_yet")
    expect(empty).to_have_text(
        words(language, "There are no puzzles yet: they are found in the duels played here."))
    # What `migrate` gives a fresh site (the suite's own databases start empty).
    assert puzzles_load_shipped(path=settings.BASE_DIR / "games" / "puzzles" / "shipped.jsonl")
    page.goto("/puzzles/")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "playing")
    expect(page.locator("[data-part=bottom] button.card:enabled").first).to_be_visible()
    assert fits(page)
    page.goto("/puzzles/?rating_min=2500")
    expect(empty).to_have_attribute("data-absence", "no_match")
    expect(empty).to_have_text(words(language, "No puzzle matches these filters."))
    assert fits(page)
    assert problems == []


@pytest.mark.parametrize(("width", "language"), WIDTHS_AND_LANGUAGES)
def test_the_themes_show_once_the_puzzle_is_solved(new_page, width, language):
    puzzle = stored(TAKE_TO_WIN)  # +3, +1, 6S: take_to_win, draw_rule, short_line
    names = [words(language, name) for name in ("Take to win", "Draw rule", "Short line")]
    page = language_page(new_page, width, language)
    problems = watched(page)
    page.goto(f"/puzzles/{puzzle.pk}/")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "playing")
    expect(page.get_by_test_id("puzzle-themes")).to_be_hidden()
    expect(page.get_by_test_id("puzzle-theme")).to_have_count(0)
    assert names[0] not in page.content()
    page.get_by_test_id("take").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "right")
    expect(page.get_by_test_id("puzzle-theme")).to_have_count(0)
    # A take reads as words on the move list, in the page's language.
    expect(page.locator("[data-testid=move-list] li[data-move='+3']")).to_contain_text(
        words(language, "Take %(n)d card", 3))
    expect(card(page, "6S")).to_be_enabled()
    card(page, "6S").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-outcome", "solved")
    expect(page.get_by_test_id("puzzle-theme")).to_have_text(names)
    assert fits(page)
    page.reload()  # played: the page itself shows them now
    expect(page.get_by_test_id("puzzle-theme")).to_have_text(names)
    assert problems == []
