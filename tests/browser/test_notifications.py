"""Notifications in a real Chromium against a real daphne (PostgreSQL, Redis): a challenge
made while the other player is on their profile page appears there at once with its accept,
the header's badge and the alert follow live on every page of theirs, and accepting from the
header's list starts the match; "your turn" is told only when unseen (not while the game's
page is open and focused) and once per game until read."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.game_page import match_id_of, players_of
from tests.browser.hearing import heard, listen
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the server first, then let the ORM run beside Playwright."""


@pytest.fixture(autouse=True)
def _servers_quiet_before_the_flush() -> Iterator[None]:
    yield
    wait_until_servers_are_quiet()


def listening(page) -> None:
    """Wait until the page's site socket has sent its first list (it is then in the group)."""
    page.locator("[data-testid=notify-list] li").first.wait_for(state="attached")


def test_a_challenge_reaches_the_profile_page_with_accept_and_the_badge_follows_live(
    player_page,
):
    anna, boris = player_page("anna"), player_page("boris")
    errors: list[str] = []
    boris.on("pageerror", lambda error: errors.append(str(error)))
    boris.on("console", lambda message: message.type == "error" and errors.append(message.text))
    boris.goto("/@/boris")
    other_tab = boris.context.new_page()
    other_tab.goto("/")
    for page in (boris, other_tab):
        listening(page)
        assert page.get_by_test_id("notify-badge").is_hidden()
    listen(boris)
    boris.keyboard.press("Shift")  # a person's first gesture: only after one may a page sound

    anna.goto("/challenge/new/")
    anna.get_by_label("Opponent").fill("boris")
    anna.get_by_label("Time control").select_option("1+1")
    anna.get_by_test_id("challenge-submit").click()

    alert = boris.get_by_test_id("notify-alert")
    alert.wait_for()
    assert "anna" in alert.inner_text()
    assert heard(boris) == ["challenge"]  # and it was heard
    for page in (boris, other_tab):
        badge = page.get_by_test_id("notify-badge")
        badge.wait_for()
        assert badge.inner_text() == "1"

    # Read on one page: on the other the badge goes out and the alert goes away at once.
    other_tab.get_by_test_id("notify-button").click()
    item = other_tab.get_by_test_id("notify-item").first
    assert "anna" in item.inner_text()
    other_tab.get_by_test_id("notify-read-all").click()
    boris.get_by_test_id("notify-badge").wait_for(state="hidden")
    alert.wait_for(state="detached")
    other_tab.close()

    # Still open, the challenge is accepted from the header's list.
    assert errors == []  # no exception, nothing the Content-Security-Policy refused
    boris.get_by_test_id("notify-button").click()
    boris.get_by_test_id("notify-list").get_by_test_id("notify-accept").click()
    match_id = match_id_of(boris)
    assert match_id_of(anna) == match_id
    assert players_of(match_id) == {"anna", "boris"}
    assert re.search(r"/game/\d+/$", boris.url)


def _turn_notifications(user) -> list[tuple[str, bool]]:
    """The player's "your turn" notifications, oldest first: (kind, unread)."""
    from notifications.models import Kind, Notification

    rows = Notification.objects.filter(user=user, kind__in=[Kind.TURN, Kind.REMINDER])
    return [(kind, read_at is None)
            for kind, read_at in rows.order_by("pk").values_list("kind", "read_at")]


def _worker_caught_up() -> None:
    """The suite's worker of the default queue is one process taking tasks in order: once it
    answers a ping sent now, every notification task sent before has run."""
    from yourtrumps_site.celery import ping

    assert ping.delay().get(timeout=60) == "pong"


def _focused(match, seat: int, count: int) -> None:
    from games.play.models import Seat

    deadline = time.monotonic() + 15
    while Seat.objects.get(match=match, index=seat).focused != count:
        assert time.monotonic() < deadline, "the page's focus never reached the server"
        time.sleep(0.1)


def _service_move(match_id: int) -> int:
    """Play the first legal move of the seat to move, as from another device; the new ply."""
    from games.play import services
    from games.play.models import Match
    from games.rules import State

    match = Match.objects.get(pk=match_id)
    move = str(State.from_tpn(match.position_tpn).legal_moves()[0])
    services.move_apply(match_id=match_id, seat=match.to_move, move=move, expected_ply=match.ply)
    return match.ply + 1


@pytest.mark.parametrize(("viewport", "language"), [
    pytest.param({"width": 1280, "height": 800}, "en", id="1280-en"),
    pytest.param({"width": 390, "height": 844}, "ru", id="390-ru"),
])
def test_your_turn_is_told_only_when_unseen_and_once_per_game(
        user_page, make_user, celery_worker, viewport, language):
    from django.utils import translation

    from games.play import services
    from games.play.models import Match
    from games.play.services import Player
    from games.play.time_control import TimeControl
    from tests.browser.game_page import at_ply, play_first_legal

    anna, boris = make_user("anna"), make_user("boris")
    anna.language = language
    anna.save(update_fields=["language"])
    match = services.match_create(players=[Player(user=anna), Player(user=boris)], seed=11,
                                  dealer=1, trumps="SH", time_control=TimeControl.parse("1d"))
    mine = 0
    _worker_caught_up()
    assert _turn_notifications(anna) == [("turn", True)]  # she leads, and is told so
    page = user_page(anna, viewport=viewport)
    page.goto(f"/game/{match.pk}/")
    at_ply(page, 0)
    _focused(match, mine, 1)
    # Seen on the board: read. (The badge's own `hidden`: at 390 px the header is folded.)
    expect(page.get_by_test_id("notify-badge")).to_have_js_property("hidden", True)

    # Eight quick moves with her board open and focused: she sees each turn come.
    ply = 0
    while ply < 8:
        if Match.objects.get(pk=match.pk).to_move == mine:
            play_first_legal(page)
            ply += 1
        else:
            ply = _service_move(match.pk)
        at_ply(page, ply)
    _worker_caught_up()
    assert _turn_notifications(anna) == [("turn", False)]
    expect(page.get_by_test_id("notify-badge")).to_have_js_property("hidden", True)

    # Away from the board (another page of the site), she is told, once for the game.
    page.goto("/")
    listening(page)
    _focused(match, mine, 0)
    for _turn in range(2):
        while Match.objects.get(pk=match.pk).to_move == mine:
            _service_move(match.pk)  # she moves from another device
        while Match.objects.get(pk=match.pk).to_move != mine:
            _service_move(match.pk)  # boris, until it is her turn again
        expect(page.get_by_test_id("notify-badge")).to_have_text("1")
    _worker_caught_up()
    assert _turn_notifications(anna) == [("turn", False), ("turn", True)]
    expect(page.get_by_test_id("notify-badge")).to_have_text("1")
    with translation.override(language):
        from django.utils.translation import gettext as _

        told = _("It is your turn against %(names)s.") % {"names": boris.username}
    expect(page.locator("[data-testid=notify-item][data-kind=turn].unread")).to_have_text(
        re.compile(re.escape(told)))

    # Back at the board: seen, so read, on every page of hers.
    page.goto(f"/game/{match.pk}/")
    expect(page.get_by_test_id("notify-badge")).to_have_js_property("hidden", True)
    assert _turn_notifications(anna) == [("turn", False), ("turn", False)]
