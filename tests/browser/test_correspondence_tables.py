"""A correspondence table in a real Chromium against a real daphne and Celery worker: created in
the lobby with days per move, a second person sits down from another browser and goes away
(the seat stays), the AI fills the last seat, and each turn of a person reaches their "your
turn" list while it is open, a move of the others included."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.matchmaking.models import TableSeat
from games.play.models import Match, Seat, Status
from tests.browser.game_page import play_first_legal
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=20_000)

MATCH_URL = re.compile(r"/game/(\d+)/$")
# Every message of the page's site socket, kept from the start, so that the test knows when
# the socket is there to bring the news of a turn.
RECORD_SITE_MESSAGES = """
window.siteMessages = [];
document.addEventListener("site-message", (event) => window.siteMessages.push(event.detail));
"""


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, celery_worker: ManagedProcess,
                      orm_beside_playwright: None) -> None:
    """The server, and the worker that plays the AI and runs the notifications' tasks, first;
    then the ORM beside Playwright."""


def _your_turn_list(page) -> None:
    page.goto("/play/your-turn/")
    page.wait_for_function(
        "() => window.siteMessages.some((m) => m.type === 'notifications')")


def _act(page) -> None:
    """The person to act does, on the board: a trump while they are chosen, else a move."""
    choose = page.locator("[data-testid^=choose-]:enabled")
    playable = page.locator("[data-part=bottom] button.card.playable, [data-testid=take]")
    expect(choose.first.or_(playable.first)).to_be_visible()
    if choose.count():
        choose.first.click()
    else:
        play_first_legal(page)


def _turn(match: Match) -> tuple[object, ...]:
    return (match.ply, match.trumps_chosen, match.status, match.to_move)


def _acted(match: Match, timeout: float = 30) -> Match:
    """The match once its player to act has acted (a presence's version is no act)."""
    before = _turn(match)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if _turn(match) != before:
            return match
        time.sleep(0.1)
    raise AssertionError(f"nobody acted in match {match.pk} at {before}")


def test_a_correspondence_table_fills_over_two_browsers_and_turns_reach_your_turn(
    user_page, make_user, celery_worker
):
    # The worker plays the AI seat and tells each turn (the task behind the live list).
    anna_user, boris_user = make_user("anna"), make_user("boris")
    anna = user_page(anna_user)
    anna.goto("/lobby/")
    anna.get_by_test_id("table-players").select_option("3")
    anna.get_by_test_id("table-time-control").select_option("1d")
    anna.get_by_test_id("table-create").click()
    mine = anna.get_by_test_id("my-correspondence-table")
    expect(mine.get_by_test_id("table-terms")).to_contain_text("1d, correspondence")

    lobby = user_page(boris_user)
    lobby.goto("/lobby/")
    listed = lobby.get_by_test_id("tables").locator("[data-testid=table][data-correspondence=true]")
    expect(listed).to_have_count(1)
    listed.get_by_test_id("table-sit").first.click()
    expect(lobby.get_by_test_id("my-correspondence-table")).to_be_visible()
    expect(lobby.get_by_test_id("my-table")).to_be_hidden()
    lobby.close()  # his lobby socket goes; a correspondence table keeps his seat
    assert TableSeat.objects.get(user=boris_user).alive_until is None
    expect(mine.locator("[data-kind=person]")).to_have_count(2)

    mine.get_by_test_id("table-ai-level").select_option("1")
    mine.get_by_test_id("table-fill-ai").click()
    expect(mine.locator("[data-kind=ai]")).to_have_count(1)
    mine.get_by_test_id("table-start").click()
    anna.wait_for_url(MATCH_URL, wait_until="commit")
    match = Match.objects.get(pk=int(MATCH_URL.search(anna.url).group(1)))
    assert (match.n_players, match.correspondence) == (3, True)

    boris = user_page(boris_user)
    boris.add_init_script(RECORD_SITE_MESSAGES)
    _your_turn_list(boris)
    row = boris.locator(f'[data-testid=corr-game][data-match="{match.pk}"]')
    expect(row).to_contain_text(anna_user.username)

    # The turns go round: the AI acts by itself, anna on her board, boris from his list.
    # Once a move has been played and boris is to act, his open list says so by itself.
    for _turn in range(30):
        match.refresh_from_db()
        assert match.status != Status.FINISHED
        mover = Seat.objects.get(match=match, index=match.to_move)
        if mover.is_ai:
            match = _acted(match)
            continue
        if mover.user_id == anna_user.pk:
            _act(anna)
            match = _acted(match)
            continue
        expect(row).to_have_attribute("data-your-turn", "true")
        if match.ply >= 1:
            expect(row.get_by_test_id("corr-time")).to_contain_text("left")
            break
        row.locator("a").click()
        boris.wait_for_url(MATCH_URL, wait_until="commit")
        _act(boris)
        match = _acted(match)
        _your_turn_list(boris)
    else:
        raise AssertionError("boris was never to move after a move was played")
