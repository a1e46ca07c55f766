"""The pages' layout in a real Chromium at a wide screen's width (1280 px) and a phone's (390
px), in English and in Basque (the longest words of the four languages)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from games.play import services
from games.play.models import Vacation
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.browser.game_page import play_first_legal
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# The end of the deadline's line for the player to move ("You have 2 days 23 hours to move.").
DEADLINE_WORDS = {"en": "to move.", "eu": "dituzu jokatzeko."}


@pytest.fixture(scope="module", autouse=True)
def _catalogues_compiled() -> None:
    call_command("compilemessages", ignore_patterns=[".venv", "tests"], verbosity=0)


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(_catalogues_compiled: None, asgi_server: ManagedProcess,
                      celery_worker: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the servers first, then let the ORM run beside sync Playwright's event loop."""


# How many rows the header's parts lie on (each part's middle, 12 px apart counts as a row).
HEADER_ROWS = """() => {
  const parts = [...document.querySelectorAll(
    '.site-header .brand, .site-header .menu-button, .site-nav > ul > li, .account-state > *')]
    .filter((part) => part.getClientRects().length);
  const middles = parts.map((part) => {
    const box = part.getBoundingClientRect();
    return (box.top + box.bottom) / 2;
  }).sort((a, b) => a - b);
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
def test_the_header_the_lobby_and_the_vacation_of_a_player_in_a_game(
        user_page, make_user, language):
    """The signed-in header at 1280 px: one row, the links that do not fit under "More"; at 390
    px the menu. The lobby of a person playing a live game: no live table or seek, and why. The
    vacation page's end, a time of day: one full stop."""
    user = make_user("alexandra")
    user.language = language
    user.save(update_fields=["language"])
    # Playing a live game (the AI is to choose its trump first: nothing moves meanwhile).
    services.match_create(players=[Player(ai_level=1), Player(user=user)], dealer=1)
    now = timezone.now()
    Vacation.objects.create(user=user, starts_at=now,
                            ends_at=now.replace(hour=0, minute=33) + timedelta(days=2))
    for name, viewport in (("wide", WIDE), ("phone", PHONE)):
        page = user_page(user, viewport=viewport)
        page.goto("/lobby/")
        expect(page.get_by_test_id("live-match")).to_be_visible()
        for form in ("table", "seek"):
            expect(page.get_by_test_id(f"{form}-create")).to_be_disabled()
            expect(page.get_by_test_id(f"{form}-busy")).to_be_visible()
        # A correspondence game is played beside the live one: that may be created.
        page.get_by_test_id("table-time-control").select_option("3d")
        expect(page.get_by_test_id("table-create")).to_be_enabled()
        expect(page.get_by_test_id("table-busy")).to_be_hidden()
        expect(page.get_by_test_id("seek-create")).to_be_disabled()
        assert_header_one_row(page)
        assert_no_sideways_scroll(page)
        if name == "phone":
            page.get_by_test_id("menu-button").click()
            expect(page.get_by_test_id("nav-leaderboard")).to_be_visible()
        elif page.get_by_test_id("nav-more").is_visible():
            # Every link is one click away: those that did not fit are in the "More" list.
            expect(page.get_by_test_id("nav-leaderboard")).to_be_hidden()
            page.get_by_test_id("nav-more-button").click()
            expect(page.get_by_test_id("nav-more-list").get_by_test_id("nav-leaderboard")
                   ).to_be_visible()
        else:
            expect(page.get_by_test_id("nav-leaderboard")).to_be_visible()
        page.goto("/play/vacation/")
        vacation = page.get_by_test_id("vacation-current")
        expect(vacation).to_contain_text(":33")
        assert ".." not in vacation.inner_text()
        assert_no_sideways_scroll(page)


# A table of four, seat 0 to lead with a dozen cards (its hand overlaps on a phone). Cards
# known to all (docs/rules.md): the sixes of the trump suits, where they lie (seat 1 holds two,
# seat 3 one).
TABLE_OF_FOUR = "SHDC 7C8C9CTCJC7D8D9DTD7H8HAS/6H6DKD9H/KCJHQC/6CQDQH - 0 -"

# The digits' badges of the hand (CSS ::before boxes, placed from their computed style) that
# cover some card of the hand.
BADGES_ON_CARDS = """() => {
  const cards = [...document.querySelectorAll('[data-part=bottom] .hand .card')];
  const boxes = cards.map((card) => card.getBoundingClientRect());
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const covering = [];
  let shown = 0;
  cards.forEach((card, i) => {
    const badge = getComputedStyle(card, '::before');
    if (!card.dataset.key || badge.display === 'none' || badge.content === 'none') return;
    shown += 1;
    const border = parseFloat(getComputedStyle(card).borderLeftWidth);
    const left = boxes[i].left + border + parseFloat(badge.left);
    const top = boxes[i].top + border + parseFloat(badge.top);
    const box = { left, top, right: left + parseFloat(badge.width),
      bottom: top + parseFloat(badge.height) };
    cards.forEach((other, j) => {
      if (overlap(box, boxes[j])) covering.push(`${card.dataset.key} on ${other.dataset.card}`);
    });
  });
  return { shown, covering };
}"""

# The opponents' face-up cards, and any of them that lies under another card at its corner.
KNOWN_CARDS_COVERED = """() => {
  const known = [...document.querySelectorAll('#game .seat:not(.mine) .hand .card[data-card]')];
  const covered = known.filter((card) => {
    const corner = card.querySelector('.corner.tl').getBoundingClientRect();
    const hit = document.elementFromPoint(
      (corner.left + corner.right) / 2, (corner.top + corner.bottom) / 2);
    return !hit || hit.closest('.card') !== card;
  }).map((card) => card.dataset.card);
  const backsOnKnown = known.filter((card) => {
    const box = card.getBoundingClientRect();
    return [...card.parentElement.querySelectorAll('.card.back')].some((back) => {
      const b = back.getBoundingClientRect();
      return Math.min(box.right, b.right) - Math.max(box.left, b.left) > 0.5;
    });
  }).map((card) => card.dataset.card);
  return { known: known.map((card) => card.dataset.card).sort(), covered, backsOnKnown };
}"""


def _table_of_four(alice):
    return services.match_create(
        players=[Player(user=alice), Player(ai_level=1), Player(ai_level=1), Player(ai_level=1)],
        dealer=3, start_tpn=TABLE_OF_FOUR)


@pytest.mark.parametrize("language", ["en", "eu"])
def test_the_table_shows_the_known_cards_and_the_keys_beside_the_cards(
        user_page, make_user, language):
    """A player's digit badges lie on no card of the hand, and the opponents' cards known to
    all lie face up under no back; a spectator's page plays no audio, so logs no warning."""
    alice = make_user("alice")
    alice.language = language
    alice.save(update_fields=["language"])
    match = _table_of_four(alice)
    for name, viewport in (("wide", WIDE), ("phone", PHONE)):
        page = user_page(alice, viewport=viewport)
        page.goto(f"/game/{match.pk}/")
        expect(page.locator("[data-part=bottom] button.card.playable")).to_have_count(12)
        badges = page.evaluate(BADGES_ON_CARDS)
        assert badges == {"shown": 9, "covering": []}, name
        known = page.evaluate(KNOWN_CARDS_COVERED)
        assert known == {"known": ["6C", "6D", "6H"], "covered": [], "backsOnKnown": []}, name
        assert_no_sideways_scroll(page)

    watcher = user_page(make_user("watcher"), viewport=WIDE)
    logged: list[str] = []
    watcher.on("console", lambda message: logged.append(message.text))
    # A browser's own policy refuses audio before a gesture and warns of each context made then;
    # this Chromium's headless one allows it, so the contexts made are counted.
    watcher.add_init_script("""(() => { window.audioContexts = 0;
      const Made = window.AudioContext;
      window.AudioContext = class extends Made {
        constructor(...args) { super(...args); window.audioContexts += 1; } }; })()""")
    watcher.goto(f"/game/{match.pk}/")
    expect(watcher.locator("#game")).to_have_attribute("data-ply", "0")
    play_first_legal(page)
    # The player's move and the AI's after it reach the spectator, each a sound's occasion.
    watcher.wait_for_function(
        "() => Number(document.getElementById('game').dataset.ply) >= 2", timeout=30_000)
    assert watcher.evaluate("window.audioContexts") == 0
    assert [text for text in logged if "Audio" in text or "play()" in text] == []


@pytest.mark.parametrize("language", ["en", "eu"])
def test_a_correspondence_game_shows_its_deadline_with_the_hand(user_page, make_user, language):
    """The time a player has to move is in view with their hand, on a phone's first screen too."""
    alice, bob = make_user("alice"), make_user("bob")
    alice.language = language
    alice.save(update_fields=["language"])
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=11,
                                  dealer=1, trumps="SH", time_control=TimeControl.parse("3d"))
    for viewport in (WIDE, PHONE):
        page = user_page(alice, viewport=viewport)
        page.goto(f"/game/{match.pk}/")
        deadline = page.get_by_test_id("corr-deadline")
        expect(deadline).to_contain_text(DEADLINE_WORDS[language])
        expect(deadline).to_be_in_viewport(ratio=1)
        expect(page.locator("[data-part=bottom] .hand .card").first).to_be_in_viewport(ratio=1)
        assert page.evaluate(BADGES_ON_CARDS)["covering"] == []
        assert_no_sideways_scroll(page)


@pytest.mark.parametrize(("language", "viewport"), [("en", WIDE), ("eu", PHONE)])
def test_the_replay_shows_an_analysis_that_takes_minutes_once_it_is_done(
        user_page, finished_duel, language, viewport):
    """The page asks again, less and less often, for as long as the analysis is pending: a busy
    worker may take many minutes (the page's clock is run on, the fetches are real)."""
    from django.core.cache import cache

    from games.replays.selectors import analysis_key
    from tests.browser.replay_page import analysis_of

    key = analysis_key(finished_duel.pk)
    cache.set(key, {"status": "pending"}, 3600)  # asked for already: no task is sent
    alice = finished_duel.seats.get(index=0).user
    alice.language = language
    alice.save(update_fields=["language"])
    page = user_page(alice, viewport=viewport)
    fetches = {"sent": 0, "done": 0}
    data_url = f"/game/{finished_duel.pk}/replay.json"

    def count(kind: str):
        return lambda request: fetches.__setitem__(kind, fetches[kind] + (data_url in request.url))

    page.on("request", count("sent"))
    page.on("requestfinished", count("done"))
    page.on("requestfailed", count("done"))
    page.clock.install()
    page.goto(f"/game/{finished_duel.pk}/replay#9")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    analysis = page.get_by_test_id("analysis")
    expect(analysis).to_have_attribute("data-status", "pending")

    def run_on(seconds: int) -> None:
        for _ in range(seconds // 5):
            page.clock.run_for(5000)
            page.wait_for_function("() => true")  # let the page's fetch, if any, go out
            deadline = time.monotonic() + 5
            while fetches["done"] < fetches["sent"] and time.monotonic() < deadline:
                page.wait_for_timeout(20)

    run_on(6 * 60)
    asked = fetches["sent"]
    assert 5 < asked < 40  # less and less often, never stopping
    cache.set(key, analysis_of(finished_duel), 3600)
    run_on(60)
    expect(analysis).to_have_attribute("data-status", "done")
    expect(page.get_by_test_id("eval-svg")).to_be_visible()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-ply", "9")
    assert_no_sideways_scroll(page)
