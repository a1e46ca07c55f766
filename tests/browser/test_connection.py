"""The game page's connection in a real Chromium against a real daphne: a move in flight is
never lost (its answer lost, or the move itself), and a connection that breaks, even without
a close (a frame over daphne's limit), is said to have failed and comes back by itself; and
the site socket of every page shows the staff's announcements.

Playwright's WebSocket routing stands between the page and the server where a test must lose
one message; every other message passes through unchanged."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from games.play import services
from games.play.models import Move
from games.play.services import Player
from tests.browser.game_page import MATCH_SOCKET, SocketLine, at_ply, play_first_legal
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]

FAILED = "The connection failed. Trying again…"
expect.set_options(timeout=15_000)

# Records what the board said, as it said it: the connection's status with its words, and the
# code of every error notice shown.
RECORDER = """
window.seen = { connection: [], notices: [] };
document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("game");
  const box = game.querySelector("[data-part=connection]");
  const notice = game.querySelector("[data-part=notice]");
  new MutationObserver(() => {
    window.seen.connection.push([game.dataset.connection, box.hidden ? "" : box.textContent]);
  }).observe(game, { attributes: true, attributeFilter: ["data-connection"] });
  new MutationObserver(() => {
    if (!notice.hidden) window.seen.notices.push(notice.dataset.code);
  }).observe(notice, { attributes: true, attributeFilter: ["hidden"] });
});
"""


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the server first, then let the ORM run beside sync Playwright's event loop."""


@pytest.fixture
def duel_pages(user_page, make_user):
    """A duel between two people and a page for each; the first records what its board said.
    `route(handler)` puts a handler between the first page and the match socket."""

    def open_pages(route: Callable[..., None] | None = None):
        alice, bob = make_user("alice"), make_user("bob")
        match = services.match_create(
            players=[Player(user=alice), Player(user=bob)], dealer=1, trumps="SH", seed=2024
        )
        first, second = user_page(alice), user_page(bob)
        first.add_init_script(RECORDER)
        if route is not None:
            first.route_web_socket(MATCH_SOCKET, route)
        first.goto(f"/game/{match.pk}/")
        second.goto(f"/game/{match.pk}/")
        expect(first.locator("#game")).to_have_attribute("data-connection", "open")
        return match, first, second

    return open_pages


def wait_until(page, condition: Callable[[], bool], what: str, timeout: float = 15) -> None:
    """Wait for something only this process sees (a routed message), letting Playwright
    deliver its events meanwhile."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(20)


def seen(page) -> dict:
    return page.evaluate("window.seen")


def test_a_move_whose_ok_was_lost_is_sent_again_and_counts_once(duel_pages):
    """The server applies the move, but its `ok` is lost with the connection: the page sends
    the move again, the server refuses it as stale, and the page shows no error for that."""
    routed = {"cut": False, "errors": []}

    def lose_the_first_ok(ws) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def to_page(message) -> None:
            data = json.loads(message)
            if data["type"] == "ok" and data["for"] == "move" and not routed["cut"]:
                routed["cut"] = True
                ws.close(code=1001)
                server.close()
                return
            if data["type"] == "error":
                routed["errors"].append(data["code"])
            ws.send(message)

        server.on_message(to_page)

    match, first, second = duel_pages(lose_the_first_ok)
    move = play_first_legal(first)
    at_ply(second, 1)
    wait_until(first, lambda: "stale_ply" in routed["errors"], "the resent move's refusal")
    # Messages reach the page in order: once it shows the opponent's next move, it has read
    # the refusal before it.
    play_first_legal(second)
    at_ply(first, 2)

    assert routed["cut"]
    assert seen(first)["notices"] == []
    expect(first.get_by_test_id("notice")).to_be_hidden()
    assert first.get_by_test_id("move-list").locator("li").first.get_attribute("data-move") == move
    played = list(Move.objects.filter(match=match).values_list("ply", "text"))
    assert len(played) == 2  # the move counted once, then the opponent's
    assert played[0] == (1, move)


def test_a_move_lost_on_its_way_goes_out_again_after_the_page_gives_up_waiting(duel_pages):
    """The move never reaches the server and nothing answers: after a few seconds the page
    says the connection failed, opens a new one, and the move is played."""
    routed = {"swallowed": 0}

    def lose_the_first_move(ws) -> None:
        server = ws.connect_to_server()
        server.on_message(ws.send)
        ws.on_close(lambda code, reason: server.close())

        def to_server(message) -> None:
            if json.loads(message)["type"] == "move" and not routed["swallowed"]:
                routed["swallowed"] += 1
                return
            server.send(message)

        ws.on_message(to_server)

    match, first, second = duel_pages(lose_the_first_move)
    move = play_first_legal(first)
    at_ply(second, 1)

    assert routed["swallowed"] == 1
    statuses = [status for status, _words in seen(first)["connection"]]
    assert "failed" in statuses
    assert statuses[-1] == "open"
    assert seen(first)["notices"] == []
    assert list(Move.objects.filter(match=match).values_list("text", flat=True)) == [move]


def test_a_frame_over_daphnes_limit_shows_the_failure_and_the_game_goes_on(duel_pages):
    """Daphne drops a frame over 1 MiB by cutting the connection, without a close code."""
    line = SocketLine()
    _match, first, second = duel_pages(line.route)
    line.to_server("x" * (1100 * 1024))
    first.wait_for_function(  # a function: the site's policy refuses `eval` of an expression
        "() => window.seen.connection.some(([status]) => status === 'failed')")
    expect(first.locator("#game")).to_have_attribute("data-connection", "open")
    assert ["failed", FAILED] in seen(first)["connection"]

    play_first_legal(first)
    at_ply(second, 1)
    at_ply(first, 1)


def test_the_game_page_works_on_a_phone_while_its_connection_is_away(user_page, make_user):
    """At 390 px the connection's words fit beside the board, and a move made while the
    socket is away goes out once it is back."""
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, trumps="SH", seed=7
    )
    page = user_page(alice, viewport={"width": 390, "height": 844}, is_mobile=True,
                     has_touch=True)
    other = user_page(bob)
    line = SocketLine()
    page.route_web_socket(MATCH_SOCKET, line.route)
    page.goto(f"/game/{match.pk}/")
    other.goto(f"/game/{match.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-connection", "open")
    # The network goes away and stays away a while, to look at the page meanwhile.
    line.held = True
    line.cut()
    expect(page.locator("[data-part=connection]")).to_have_text(FAILED)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    play_first_legal(page)
    line.held = False
    at_ply(other, 1)
    expect(page.locator("[data-part=connection]")).to_be_hidden()


def test_an_announcement_reaches_an_open_page(user_page):
    """The site socket of every page (static/js/announcements.js) shows the staff's banner."""
    page = user_page()
    page.goto("/")
    banner = page.locator("#announcement")
    # The page's socket joins the site group some moments after the page loads, and nothing
    # on the page says when: announce again until the banner shows, for a while.
    deadline = time.monotonic() + 15
    with ThreadPoolExecutor(1) as outside_playwrights_loop:
        while not banner.is_visible() and time.monotonic() < deadline:
            outside_playwrights_loop.submit(
                call_command, "announce", "The server restarts in 5 minutes",
                stdout=io.StringIO(),
            ).result()
            page.wait_for_timeout(200)
    expect(banner).to_have_text("The server restarts in 5 minutes")
