"""Live play in a real Chromium against a real daphne (and a real Celery worker for the AI):
two people play a duel to its end through the board, a guest plays the AI to its end, and a
reload or a dropped connection in mid-game resumes at the right version."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.play import services
from games.play.models import Match, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.browser.game_page import (
    MATCH_SOCKET,
    RECONNECTED_MS,
    SocketLine,
    at_ply,
    card,
    play_first_legal,
)
from tests.games.sockets import session_cookie_for
from tests.support.processes import ManagedProcess
from tests.support.settle import wait_sockets_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]

# Seat 0 leads 7C; seat 1 beats with 8C and lays KD; seat 0 cannot beat KD and takes 3;
# seat 1 leads its last card 6D and wins.
SHORT_DUEL = "SH 7C9D/6D8CKD - 0 -"
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, celery_worker: ManagedProcess,
                      orm_beside_playwright: None) -> None:
    """Start the server and the worker first, then let the ORM run beside Playwright."""


def test_two_players_play_a_duel_to_its_end(user_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, start_tpn=SHORT_DUEL
    )
    first, second = user_page(alice), user_page(bob)
    first.goto(f"/game/{match.pk}/")
    second.goto(f"/game/{match.pk}/")

    # Both hands are shown; each player's trump suit is on screen.
    expect(first.get_by_test_id("trump-0")).to_contain_text("spades")
    expect(first.get_by_test_id("trump-1")).to_contain_text("hearts")
    expect(second.locator('[data-testid=hand-0] .card[data-card="9D"]')).to_be_visible()
    expect(first.get_by_test_id("status")).to_contain_text("Your turn")
    expect(second.get_by_test_id("status")).to_contain_text(alice.username)
    # Only what may be played is enabled: with an empty pile, any card leads; the player who
    # waits may only choose a premove.
    expect(card(second, "8C")).not_to_have_class(re.compile(r"\bplayable\b"))
    expect(card(second, "8C")).to_have_class(re.compile(r"\bpremovable\b"))

    card(first, "7C").click()
    at_ply(second, 1)
    expect(second.locator('[data-testid=pile] .card.last[data-card="7C"]')).to_be_visible()
    # Bob beats 7C: only 8C beats it (KD and 6D do not), then lays KD.
    expect(card(second, "6D")).to_be_disabled()
    expect(card(second, "KD")).to_be_disabled()
    # With the keyboard: Enter on 8C chooses it, focus moves on to the cards that may follow.
    card(second, "8C").focus()
    second.keyboard.press("Enter")
    expect(card(second, "8C")).to_have_attribute("aria-pressed", "true")
    expect(card(second, "6D")).to_be_focused()
    expect(card(second, "KD")).to_be_enabled()
    second.keyboard.press("Tab")
    expect(card(second, "KD")).to_be_focused()
    second.keyboard.press("Enter")

    at_ply(first, 2)
    expect(first.get_by_test_id("pile-count")).to_contain_text("3 cards")
    expect(first.get_by_test_id("take")).to_have_text("Take 3 cards")
    first.get_by_test_id("take").click()

    at_ply(second, 3)
    card(second, "6D").click()

    for page, title in ((first, "You lost"), (second, "You won")):
        expect(page.get_by_test_id("result-title")).to_have_text(title)
        expect(page.get_by_test_id("result-reason")).to_have_text("Cards played out")
        expect(page.get_by_test_id("move-list").locator("li")).to_have_count(4)
        expect(page.get_by_test_id("rematch")).to_be_visible()
        expect(page.get_by_test_id("replay-link")).to_have_attribute(
            "href", f"/game/{match.pk}/replay")
    match.refresh_from_db()
    assert (match.status, match.loser_seat) == (Status.FINISHED, 0)

    # Rematch: both ask, and both pages move to the new game, dealt by the loser.
    first.get_by_test_id("rematch").click()
    expect(second.get_by_test_id("rematch")).to_have_text("Accept the rematch")
    old_url = first.url
    second.get_by_test_id("rematch").click()
    expect(first).not_to_have_url(old_url)
    expect(second).not_to_have_url(old_url)
    rematch = Match.objects.get(previous=match)
    assert first.url.endswith(f"/game/{rematch.pk}/")
    assert second.url.endswith(f"/game/{rematch.pk}/")
    assert rematch.dealer == 0  # the loser deals
    expect(first.locator("#game")).to_have_attribute("data-status", re.compile("trumps|playing"))


def test_a_guest_starts_a_game_against_the_ai_from_the_home_page(user_page):
    page = user_page()
    page.goto("/")
    page.get_by_test_id("play-ai").click()
    page.select_option("select[name=level]", index=0)
    page.get_by_test_id("start-ai-game").click()
    page.wait_for_url("**/game/*/")
    game = page.locator("#game")
    expect(game).to_have_attribute("data-version", re.compile(r"\d+"))
    match = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert match.seats.get(index=0).guest_id
    assert match.seats.get(index=1).ai_level == 1
    if game.get_attribute("data-status") == "trumps":
        page.locator("[data-testid^=choose-]:not([disabled])").first.click()
    expect(game).to_have_attribute("data-status", "playing")
    # Whoever leads, the AI answers: the game reaches the human's turn after an AI move.
    if game.get_attribute("data-to-move") == game.get_attribute("data-you"):
        play_first_legal(page)
    expect(page.get_by_test_id("move-list").locator("li.seat-1")).not_to_have_count(0)
    expect(game).to_have_attribute("data-to-move", "0")


def test_the_rules_page_draws_its_cards_with_the_board_component(user_page):
    page = user_page()
    page.goto("/rules/")

    example = page.get_by_test_id("rules-example-beat")
    expect(example.locator('.card[data-card="9H"]')).to_be_visible()
    expect(example.locator('.card[data-card="6S"].is-trump')).to_have_attribute(
        "aria-label", "six of spades")
    expect(page.get_by_test_id("house-rules")).to_contain_text("2000")
    expect(page.get_by_test_id("house-rules")).to_contain_text("strict")


# A short middle game: the weakest AI (seat 1) and a guest (seat 0) play it to its end.
AI_ENDGAME = "SH 7C9DJSQH8D/6D8CKDTCAH - 0 -"


def test_a_guest_plays_the_ai_to_the_end(user_page):
    match = services.match_create(
        players=[Player(guest_id="b" * 32), Player(ai_level=1)], dealer=1,
        start_tpn=AI_ENDGAME, time_control=TimeControl(180, 2),
    )
    # On a phone's screen: the table fits the width, and the cards are tapped.
    page = user_page(guest_id="b" * 32, viewport={"width": 390, "height": 844},
                     is_mobile=True, has_touch=True)
    page.goto(f"/game/{match.pk}/")
    game = page.locator("#game")
    expect(game).to_have_attribute("data-you", "0")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # Remember whether the page ever said that the AI is thinking (its moves come fast).
    page.evaluate("""() => {
        const status = document.querySelector('[data-testid=status]');
        const seen = () => {
            if (status.classList.contains('thinking')) window.sawThinking = true;
        };
        seen();
        new MutationObserver(seen).observe(status, {attributes: true, childList: true});
    }""")

    deadline = time.monotonic() + 60
    while game.get_attribute("data-status") == "playing" and time.monotonic() < deadline:
        if game.get_attribute("data-to-move") == game.get_attribute("data-you"):
            ply = game.get_attribute("data-ply")
            play_first_legal(page)
            expect(game).not_to_have_attribute("data-ply", ply)
        else:
            page.wait_for_function(
                "() => { const g = document.getElementById('game');"
                " return g.dataset.toMove === g.dataset.you || g.dataset.status !== 'playing'; }",
                timeout=30_000,
            )

    expect(game).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id("result-title")).to_be_visible()
    expect(page.get_by_test_id("result-reason")).not_to_be_empty()
    match.refresh_from_db()
    assert match.status == Status.FINISHED
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(match.ply)
    assert page.evaluate("window.sawThinking === true")


def test_a_reload_or_a_dropped_connection_resumes_the_game(user_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, trumps="SH", seed=2024,
        time_control=TimeControl(300, 3),
    )
    first, second = user_page(alice), user_page(bob)
    bobs_line = SocketLine()
    second.route_web_socket(MATCH_SOCKET, bobs_line.route)
    first.goto(f"/game/{match.pk}/")
    second.goto(f"/game/{match.pk}/")
    play_first_legal(first)
    at_ply(second, 1)
    play_first_legal(second)
    at_ply(first, 2)
    moves = first.get_by_test_id("move-list").locator("li")
    expect(moves).to_have_count(2)
    moves_before = [moves.nth(i).get_attribute("data-move") for i in range(2)]

    first.reload()
    at_ply(first, 2)
    expect(moves).to_have_count(2)
    assert [moves.nth(i).get_attribute("data-move") for i in range(2)] == moves_before
    expect(first.get_by_test_id("status")).to_contain_text("Your turn")
    play_first_legal(first)
    at_ply(second, 3)

    # Bob's connection drops just before he moves: the move goes out once it is back.
    bobs_line.cut()
    play_first_legal(second)
    at_ply(first, 4, timeout=RECONNECTED_MS)
    # It drops again, and Alice moves while he is away: he catches up by himself.
    bobs_line.cut()
    play_first_legal(first)
    at_ply(first, 5)
    at_ply(second, 5, timeout=RECONNECTED_MS)  # reconnected by itself, with the full state
    expect(second.get_by_test_id("move-list").locator("li")).to_have_count(5)
    expect(second.get_by_test_id("status")).to_contain_text("Your turn")


def test_the_player_who_stays_claims_victory_over_one_who_left(
    browser, start_asgi_server, make_user
):
    """On a server where a claim is allowed after 2 s: Bob closes his page on his turn;
    Alice sees the countdown, then claims the win."""
    server = start_asgi_server(
        DJANGO_SETTINGS_MODULE="tests.games.fast_settings", DJANGO_ALLOW_ASYNC_UNSAFE=""
    )
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, trumps="SH", seed=5
    )
    pages = []
    for user in (alice, bob):
        context = browser.new_context(base_url=server.extra["url"])
        context.set_default_timeout(15_000)
        context.add_cookies([{"name": "sessionid", "value": session_cookie_for(user).split("=")[1],
                              "url": server.extra["url"]}])
        page = context.new_page()
        page.goto(f"/game/{match.pk}/")
        pages.append(page)
    first, second = pages
    try:
        at_ply(second, 0)
        play_first_legal(first)
        at_ply(second, 1)
        play_first_legal(second)
        at_ply(first, 2)
        play_first_legal(first)
        at_ply(second, 3)
        second.context.close()  # Bob, who has moved, leaves on his own turn

        expect(first.get_by_test_id("claim")).to_be_visible()
        expect(first.get_by_test_id("actions")).to_contain_text("left the game")
        expect(first.get_by_test_id("claim")).to_be_enabled()
        first.get_by_test_id("claim").click()
        expect(first.get_by_test_id("result-title")).to_have_text("You won")
        expect(first.get_by_test_id("result-reason")).to_have_text("Opponent left the game")
    finally:
        first.context.close()
        wait_sockets_settled()  # while this test's server still runs
    match.refresh_from_db()
    assert (match.termination, match.loser_seat) == (TerminationReason.ABANDONMENT, 1)
