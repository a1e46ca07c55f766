"""Correspondence play in a real Chromium against a real daphne: two people play a duel over
several sessions (every page closed after a move and opened again later, from the "your turn"
list), the list follows whose move it is, "next game" leads on, and the deadline, moved
forward by the clock the services take (never by sleeping), flags the silent player on the
board that is open."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.play import services
from games.play.models import Match, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
from games.rules import State
from tests.browser.game_page import at_ply, play_first_legal
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, celery_worker: ManagedProcess,
                      orm_beside_playwright: None) -> None:
    """Start the server and the worker (it runs the notifications' tasks) first, then let the
    ORM run beside Playwright."""


def _duel(first, second, key: str = "1d") -> Match:
    return services.match_create(players=[Player(user=first), Player(user=second)], seed=11,
                                 dealer=1, trumps="SH", time_control=TimeControl.parse(key))


def _row(page, match: Match):
    return page.locator(f'[data-testid=corr-game][data-match="{match.pk}"]')


def _session(user_page, user, match: Match, ply: int) -> None:
    """One visit: open the list, see the game waiting, open it, move, see the way on, leave."""
    page = user_page(user)
    page.goto("/play/your-turn/")
    row = _row(page, match)
    expect(row).to_have_attribute("data-your-turn", "true")
    expect(row.get_by_test_id("corr-time")).to_contain_text("left")
    row.locator("a").click()
    at_ply(page, ply)
    expect(page.get_by_test_id("corr-deadline")).to_have_text(
        re.compile(r"^You have .* to move\.$"))
    expect(page.get_by_test_id("next-game")).to_be_hidden()
    play_first_legal(page)
    at_ply(page, ply + 1)
    expect(page.get_by_test_id("corr-deadline")).to_contain_text("has")
    expect(page.get_by_test_id("next-game")).to_be_visible()
    page.close()


def test_a_duel_over_several_sessions_ends_on_the_deadline(user_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = _duel(alice, bob)

    for ply in range(4):  # two visits each, every page closed after its move
        _session(user_page, alice if ply % 2 == 0 else bob, match, ply)
        match.refresh_from_db()
        assert match.status == Status.PLAYING
        assert match.ply == ply + 1

    # Alice is to move again. Bob's list shows the game as hers.
    watcher = user_page(bob)
    watcher.goto("/play/your-turn/")
    expect(_row(watcher, match)).to_have_attribute("data-your-turn", "false")
    expect(watcher.get_by_test_id("waiting-count")).to_contain_text("0 games")
    watcher.goto(f"/game/{match.pk}/")
    at_ply(watcher, 4)
    expect(watcher.get_by_test_id("corr-deadline")).to_contain_text(f"{alice.username} has")

    # A day passes without her move: the deadline watch, run at that instant, flags her,
    # and Bob's open board shows it at once.
    _watch_until_over(match, timezone.now() + timedelta(days=1, seconds=1))
    expect(watcher.get_by_test_id("result-title")).to_have_text("You won")
    expect(watcher.get_by_test_id("result-reason")).to_have_text("Time out")
    match.refresh_from_db()
    assert (match.termination, match.loser_seat) == (TerminationReason.TIMEOUT, 0)
    watcher.goto("/play/your-turn/")
    expect(_row(watcher, match)).to_have_count(0)


def _watch_until_over(match: Match, now: datetime) -> None:
    """The deadline watch's passes at `now`, as a worker runs them (every 0.25 s): a pass
    passes over a match whose row a presence change holds at that instant (Bob's open page
    renews his), and the next one takes it."""
    for _ in range(40):
        services.deadlines_enforce(now=now)
        match.refresh_from_db()
        if match.status != Status.PLAYING:
            return
        time.sleep(0.25)


def test_next_game_leads_to_the_next_game_waiting(user_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    urgent, later = _duel(alice, bob, "1d"), _duel(alice, bob, "7d")
    page = user_page(alice)
    page.goto("/")
    rows = page.get_by_test_id("home-corr").get_by_test_id("corr-game")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-match", str(urgent.pk))
    rows.first.locator("a").click()
    at_ply(page, 0)
    play_first_legal(page)
    at_ply(page, 1)
    page.get_by_test_id("next-game").click()
    expect(page).to_have_url(re.compile(rf"/game/{later.pk}/$"))
    at_ply(page, 0)
    expect(page.get_by_test_id("corr-deadline")).to_contain_text("You have 6 days 23 hours")


def test_the_list_follows_the_opponents_move_while_it_is_open(user_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = _duel(bob, alice, "2d")  # bob (seat 0) to move
    page = user_page(alice)
    page.goto("/play/your-turn/")
    expect(_row(page, match)).to_have_attribute("data-your-turn", "false")
    expect(page.get_by_test_id("waiting-count")).to_contain_text("0 games")

    # Bob moves elsewhere: the turn's notification reaches Alice's open page over the site
    # socket, and the list is read again.
    match.refresh_from_db()
    legal = [str(m) for m in State.from_tpn(match.position_tpn).legal_moves()]
    services.move_apply(match_id=match.pk, seat=0, move=legal[0], expected_ply=0)
    expect(_row(page, match)).to_have_attribute("data-your-turn", "true")
    expect(page.get_by_test_id("waiting-count")).to_contain_text("1 game is waiting")
