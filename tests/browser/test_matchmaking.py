"""Matchmaking in a real Chromium against a real daphne (PostgreSQL, Redis): two players
who join one pool, a seek accepted from the lobby and a challenge link all end with both
players on the same match page."""

from __future__ import annotations

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
    """Set up first, so torn down last: after the pages have closed, let the server finish
    handling their sockets before the database is flushed."""
    yield
    wait_until_servers_are_quiet()


def test_two_players_joining_one_pool_land_in_the_same_match(player_page):
    anna, boris = player_page("anna"), player_page("boris")
    for page in (anna, boris):
        page.goto("/lobby/")
        page.get_by_test_id("pools").wait_for()

    anna.get_by_test_id("pool-3+2").click()
    anna.get_by_test_id("searching").wait_for()
    assert anna.get_by_test_id("waited").is_visible()
    boris.get_by_test_id("pool-3+2").click()

    match_id = match_id_of(anna)
    assert match_id_of(boris) == match_id
    assert players_of(match_id) == {"anna", "boris"}


def test_cancelling_the_search_leaves_the_pool(player_page):
    anna = player_page("anna")
    anna.goto("/lobby/")
    anna.get_by_test_id("pool-1+1").click()
    anna.get_by_test_id("searching").wait_for()
    # The count's words in the plural form of the page's language (Intl.PluralRules).
    waiting = anna.get_by_test_id("pool-1+1").locator("[data-role=waiting]")
    waiting.filter(has_text="1 waiting").wait_for()

    anna.get_by_test_id("pool-cancel").click()

    anna.get_by_test_id("searching").wait_for(state="hidden")
    from games.matchmaking.models import PoolEntry

    assert not PoolEntry.objects.exists()


def test_a_seek_accepted_from_the_lobby_starts_a_match_for_both(player_page):
    anna, boris = player_page("anna"), player_page("boris")
    anna.goto("/lobby/")
    boris.goto("/lobby/")
    anna.get_by_test_id("seek-time-control").select_option("5+3")
    anna.get_by_test_id("seek-create").click()

    seek = boris.get_by_test_id("seek")
    seek.wait_for()
    assert seek.get_by_test_id("seek-player").inner_text() == "anna"
    seek.get_by_test_id("seek-accept").click()

    match_id = match_id_of(boris)
    assert match_id_of(anna) == match_id
    assert players_of(match_id) == {"anna", "boris"}


def test_a_challenge_link_works(player_page):
    anna, boris = player_page("anna"), player_page("boris")
    anna.goto("/challenge/new/")
    anna.get_by_label("Time control").select_option("1+1")
    anna.get_by_test_id("challenge-submit").click()
    link = anna.get_by_test_id("share-url").input_value()

    boris.goto(link)
    boris.get_by_test_id("challenge-accept").click()

    match_id = match_id_of(boris)
    assert match_id_of(anna) == match_id
    assert players_of(match_id) == {"anna", "boris"}
