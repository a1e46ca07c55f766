"""A person whose seat at a table passed to the AI comes back to the game page, in a real
Chromium on a real daphne: they see their own seat at the bottom (their hand, "AI for You"),
from which move the AI played it, no act of a player, and their result when the game ends;
at 1280 px in English and at 390 px in Polish."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.play import services
from games.play.models import Match, Status
from games.play.services import Player
from tests.games.conftest import T_AHEAD
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _at(seconds: float) -> datetime:
    """`seconds` after a start far ahead of the clock: no deadline watch running beside the
    test (a worker's, a server's) finds its deadlines due."""
    return T_AHEAD + timedelta(seconds=seconds)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the server first, then let the ORM run beside Playwright."""


@pytest.fixture(autouse=True)
def _servers_quiet_before_the_flush() -> Iterator[None]:
    yield
    Match.objects.filter(status__in=[Status.TRUMPS, Status.PLAYING]).update(
        status=Status.ABORTED, due_at=None)
    wait_until_servers_are_quiet()


@pytest.mark.parametrize(("viewport", "language"), [
    pytest.param(DESKTOP, "en", id="1280-en"),
    pytest.param(PHONE, "pl", id="390-pl"),
])
def test_a_player_back_at_a_table_the_ai_took_over_sees_their_seat_and_result(
        user_page, make_user, viewport, language):
    people = [make_user(name) for name in ("anna", "boris", "vera")]
    leaver = people[0]
    leaver.language = language
    leaver.save(update_fields=["language"])
    # Untimed, seat 0 leads: the AI takes seat 0 over when its person has been away 30 s.
    match = services.match_create(players=[Player(user=u) for u in people], trumps="SHD",
                                  seed=7, dealer=2, public=False, now=T_AHEAD)
    assert match.to_move == 0
    services.match_deadline_enforce(match_id=match.pk, now=_at(30))

    with translation.override(language):
        from django.utils.translation import gettext as _

        ai_for_you = _("AI for {name}").replace("{name}", _("You"))
        note = _("You left the table: the AI played your seat from move {move}.").replace(
            "{move}", "1")
        lost = _("You lost")

    page = user_page(leaver, viewport=viewport)
    page.goto(f"/game/{match.pk}/")
    game = page.locator("#game")
    expect(game).to_have_attribute("data-you", "0")  # their seat, not a spectator's view
    expect(page.locator("html")).to_have_attribute("lang", language)
    bottom = page.locator("#game [data-part=bottom] .seat")
    expect(bottom).to_have_attribute("data-seat", "0")
    expect(bottom).to_contain_text(ai_for_you)
    expect(page.locator("#game [data-part=bottom] .hand .card").first).to_be_visible()
    expect(page.get_by_test_id("taken-over")).to_have_text(note)
    expect(page.get_by_test_id("taken-over")).to_be_in_viewport()
    expect(page.get_by_test_id("resign")).to_have_count(0)

    services.match_resign(match_id=match.pk, seat=1, now=_at(40))

    expect(game).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id("result-title")).to_have_text(lost)
    expect(page.get_by_test_id("taken-over")).to_have_text(note)
    expect(page.get_by_test_id("rematch")).to_be_visible()
