"""An arena in a real Chromium against a real daphne and Celery worker: two players join from
its page and are taken to their game at once; one berserks from the game's page; as each game
ends a watcher's standings show the score, up to a streak, and both players are taken to their
next game at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.play import services as play
from games.play.models import Match, Seat, Status
from games.play.time_control import TimeControl
from games.tournaments import services
from tests.browser.game_page import MATCH_URL, match_id_of
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, celery_worker: ManagedProcess,
                      orm_beside_playwright: None) -> None:
    """Start the server and the worker (it scores ended games) first, then the ORM."""


def test_two_players_are_paired_taken_to_their_games_and_the_standings_follow(
        user_page, make_user):
    arena = services.tournament_create(
        creator=None, name="Browser arena", time_control=TimeControl(180, 2),
        starts_at=timezone.now() - timedelta(seconds=1), minutes=60)  # the worker starts it
    anna, boris = make_user("anna"), make_user("boris")
    pages = {user: user_page(user) for user in (anna, boris)}
    watcher = user_page()
    path = f"/tournament/{arena.token}/"
    watcher.goto(path)
    expect(watcher.get_by_test_id("countdown")).not_to_have_text("")
    for page in pages.values():
        page.goto(path)
    pages[anna].get_by_test_id("tournament-join").click()
    pages[anna].get_by_test_id("tournament-pause").wait_for()  # joined, waiting
    pages[boris].get_by_test_id("tournament-join").click()

    match_id = match_id_of(pages[anna])
    assert match_id_of(pages[boris]) == match_id
    expect(watcher.get_by_test_id("arena-game")).to_have_attribute("href", f"/game/{match_id}/")

    # Anna berserks before her first move: half her time.
    pages[anna].get_by_test_id("berserk").click()
    pages[anna].get_by_test_id("arena-strip").wait_for()
    expect(pages[anna].get_by_test_id("berserk")).to_have_count(0)
    assert Seat.objects.get(match_id=match_id, user=anna).berserk

    # Boris resigns three games in a row (the trumps chosen by their timeouts): a berserk
    # win is 3 points, the next win 2, and the third, on fire, 4.
    anna_row = watcher.locator(f"[data-testid=standing][data-player={anna.username}]")
    for expected in ("3", "5", "9"):
        match = Match.objects.get(pk=match_id)
        while match.status == Status.TRUMPS:
            play.match_deadline_enforce(match_id=match_id, now=match.due_at)
            match.refresh_from_db()
        play.match_resign(match_id=match_id,
                          seat=Seat.objects.get(match_id=match_id, user=boris).index)
        expect(anna_row.get_by_test_id("score")).to_have_text(expected)
        # Still on the page of the game that ended, both are taken to their next one.
        for page in pages.values():
            page.wait_for_url(lambda url, done=match_id: MATCH_URL.search(url) is not None
                              and MATCH_URL.search(url).group(1) != str(done), timeout=30_000)
        assert pages[anna].url == pages[boris].url
        match_id = match_id_of(pages[anna])
    expect(anna_row.get_by_test_id("on-fire")).to_be_visible()
    expect(watcher.locator("[data-testid=standing]").first).to_have_attribute(
        "data-player", anna.username)
    for page in (*pages.values(), watcher):
        page.close()
    wait_until_servers_are_quiet()
