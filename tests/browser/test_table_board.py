"""Tables of three and four in a real Chromium against a real daphne and Celery worker: a
person plays three AI seats (and two, at a table of three) to the end through the board, at
desktop and at phone width, with the mouse and with the keyboard; on every turn of theirs the
opponents on screen are what the rules let that person see; a spectator sees no hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.play import selectors, services
from games.play.models import Match, Status
from games.play.services import Player
from games.rules import visible_hands
from games.rules.cards import CARD_NAMES, mask_codes
from tests.browser.game_page import RECONNECTED_MS, play_first_legal
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIDES = {3: {"left", "right"}, 4: {"left", "across", "right"}}


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, celery_worker: ManagedProcess,
                      orm_beside_playwright: None) -> None:
    """Start the server and the worker first, then let the ORM run beside Playwright."""


def seats_on_screen(page) -> dict[int, dict]:
    """Every seat as the page draws it: its side, face-up cards, backs and head."""
    drawn = page.evaluate("""() => Object.fromEntries(
      [...document.querySelectorAll('#game .seat')].map((seat) => [seat.dataset.seat, {
        side: seat.dataset.side || (seat.closest('[data-part=bottom]') ? 'bottom' : ''),
        known: [...seat.querySelectorAll('.hand .card[data-card]')]
          .map((c) => c.dataset.card).sort(),
        backs: seat.querySelectorAll('.hand .card.back').length,
        size: seat.querySelector('.hand-size')?.textContent ?? null,
        place: seat.querySelector('.place')?.textContent ?? null,
        trump: seat.querySelector('.trump-badge')?.dataset.suit ?? null,
        buttons: seat.querySelectorAll('button.card').length,
      }]))""")
    return {int(index): seat for index, seat in drawn.items()}


def assert_screen_shows_what_the_viewer_may_know(page, match_id: int, viewer: int | None) -> None:
    """The seats on screen against the truth of the database at the page's ply: the rules
    engine's own account of what this viewer may see (`visible_hands`)."""
    match = Match.objects.get(pk=match_id)
    assert page.locator("#game").get_attribute("data-ply") == str(match.ply)
    game = selectors.match_game(match=match)
    assert game is not None
    state = game.state
    known, hidden = visible_hands(state, viewer)
    drawn = seats_on_screen(page)
    n = match.n_players
    bottom = 0 if viewer is None else viewer
    assert drawn[bottom]["side"] == "bottom"
    assert {drawn[i]["side"] for i in range(n) if i != bottom} == SIDES[n]
    trumps = {seat.index: seat.trump for seat in selectors.match_seats(match=match)}
    for index in range(n):
        seat = drawn[index]
        assert seat["known"] == sorted(CARD_NAMES[c] for c in mask_codes(known[index])), index
        assert seat["backs"] == hidden[index], index
        assert seat["trump"] == trumps[index]
        if index in state.out:
            assert seat["place"] is not None
            assert seat["size"] is None
        else:
            assert seat["size"] is not None
            assert seat["size"].split()[0] == str(state.hand_size(index)), (index, seat["size"])
        if index != bottom or viewer is None:
            assert seat["buttons"] == 0
        if index != viewer:
            # Every card of another hand is drawn: face up if known, else as a back.
            assert len(seat["known"]) + seat["backs"] == state.hand_size(index)


def wait_turn_or_end(page) -> str:
    # Once the person is out, the AI seats play on among themselves until the end: that
    # may take a few hundred moves, each through the worker.
    page.wait_for_function("""() => {
      const g = document.getElementById('game');
      return g.dataset.status === 'finished'
        || (['trumps', 'playing'].includes(g.dataset.status) && g.dataset.toMove === g.dataset.you);
    }""", timeout=240_000)
    return page.locator("#game").get_attribute("data-status")


def play_by_keyboard(page) -> None:
    """Play the first card that may be played (and the first that may follow it), else
    take, with the keyboard alone: focus, Enter."""
    expect(page.locator("[data-part=bottom] button.card.playable, [data-testid=take]").first
           ).to_be_visible()
    playable = page.locator("[data-part=bottom] button.card.playable")
    if playable.count():
        playable.first.focus()
        page.keyboard.press("Enter")
        second = page.locator("[data-part=bottom] button.card.playable:not(.selected)")
        if page.locator("[data-part=bottom] button.card.selected").count():
            expect(second.first).to_be_focused()
            page.keyboard.press("Enter")
        return
    page.get_by_test_id("take").focus()
    page.keyboard.press("Enter")


def play_to_the_end(page, match_id: int, viewer: int, *, keyboard: bool) -> int:
    """Play the person's seat until the match is over, checking the screen at every turn.
    Returns how many moves the person made."""
    made = 0
    while (status := wait_turn_or_end(page)) != "finished":
        ply = int(page.locator("#game").get_attribute("data-ply"))
        if status == "trumps":
            page.locator("[data-testid^=choose-]:not([disabled])").first.click()
            page.wait_for_function("""() => {
              const g = document.getElementById('game');
              return g.dataset.status !== 'trumps' || g.dataset.toMove !== g.dataset.you;
            }""")
            continue
        assert_screen_shows_what_the_viewer_may_know(page, match_id, viewer)
        if keyboard:
            play_by_keyboard(page)
        else:
            play_first_legal(page)
        made += 1
        # A move whose answer is slow is sent again once the socket has given up waiting and
        # connected again (static/js/socket.js).
        page.wait_for_function(f"() => Number(document.getElementById('game').dataset.ply) > {ply}",
                               timeout=RECONNECTED_MS)
    return made


def table_within_screen(page) -> None:
    """Nothing on the table (seats, hands, pile) reaches past either edge of the screen, once
    the cards have come to rest (a move's animation carries its cards across the table)."""
    page.wait_for_function("""() => document.getAnimations().filter(
        (a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition)).length === 0""")
    outside = page.evaluate("""() => [...document.querySelectorAll('.table, .table *')]
      .map((node) => node.getBoundingClientRect())
      .filter((box) => box.width && (box.left < -0.5 || box.right > innerWidth + 0.5)).length""")
    assert outside == 0


def assert_places_at_the_end(page, match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    assert match.status == Status.FINISHED
    drawn = seats_on_screen(page)
    for seat in selectors.match_seats(match=match):
        assert drawn[seat.index]["place"] is not None
        assert drawn[seat.index]["place"].split()[-1] == str(seat.place)


# Each table is played at both widths: with the mouse at one, with the keyboard at the other.
WIDTHS = [
    pytest.param({"viewport": DESKTOP}, False, id="desktop-mouse"),
    pytest.param({"viewport": PHONE, "is_mobile": True, "has_touch": True}, True,
                 id="phone-keyboard"),
]


@pytest.mark.parametrize(("screen", "keyboard"), WIDTHS)
def test_a_person_plays_three_ai_seats_to_the_end(user_page, make_user, screen, keyboard):
    alice = make_user("alice")
    # Seats 2 and 3 choose their trumps first (the dealer's left begins), then alice, from
    # the two suits left. The AI's choices are seeded by the match's seed, so the game is
    # known in advance: played as here (the greedy AI, the board's first playable card), this
    # deal lasts 55 plies, where most last 200 or more: alice moves 12 times, is out at ply 43,
    # and the AI seats play the last 12 among themselves.
    match = services.match_create(
        players=[Player(user=alice), Player(ai_level=2), Player(ai_level=2), Player(ai_level=2)],
        seed=691, dealer=1,
    )
    page = user_page(alice, **screen)
    page.goto(f"/game/{match.pk}/")
    game = page.locator("#game")
    expect(game).to_have_attribute("data-players", "4")
    expect(game).to_have_attribute("data-status", "trumps")
    expect(page.locator(".trump-choice-title")).to_have_text("Choose your trump suit")
    expect(page.locator("[data-testid^=choose-]:not([disabled])")).to_have_count(2)
    # The opponents sit clockwise from alice: seat 1 on her left, 2 across, 3 on her right.
    for part, seat in (("left", 1), ("top", 2), ("right", 3)):
        expect(page.locator(f"[data-part={part}] .seat")).to_have_attribute("data-seat", str(seat))
    table_within_screen(page)
    made = play_to_the_end(page, match.pk, 0, keyboard=keyboard)
    assert made == 12
    expect(page.get_by_test_id("result-title")).to_be_visible()
    assert_places_at_the_end(page, match.pk)
    table_within_screen(page)


@pytest.mark.parametrize(("screen", "keyboard"), WIDTHS[::-1])
def test_a_person_plays_a_table_of_three(user_page, make_user, screen, keyboard):
    bob = make_user("bob")
    # A deal whose game, played as here (the greedy AI, the board's first playable card),
    # lasts 58 plies, 13 of them bob's (each of his turns is checked on screen); he is out at
    # ply 38 and the AI seats play on to the end.
    match = services.match_create(
        players=[Player(ai_level=2), Player(user=bob), Player(ai_level=2)],
        seed=735, dealer=2, trumps="SHD",
    )
    page = user_page(bob, **screen)
    page.goto(f"/game/{match.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-players", "3")
    # Seen from seat 1: seat 2 on the left, seat 0 on the right, nobody across.
    expect(page.locator("[data-part=left] .seat")).to_have_attribute("data-seat", "2")
    expect(page.locator("[data-part=right] .seat")).to_have_attribute("data-seat", "0")
    expect(page.locator("[data-part=top] .seat")).to_have_count(0)
    # Both opponents sit side by side, level with each other, inside the screen.
    left = page.locator("[data-part=left] .seat").bounding_box()
    right = page.locator("[data-part=right] .seat").bounding_box()
    assert left is not None
    assert right is not None
    assert left["x"] + left["width"] <= right["x"]
    assert abs(left["y"] + left["height"] / 2 - right["y"] - right["height"] / 2) < 2
    table_within_screen(page)
    made = play_to_the_end(page, match.pk, 1, keyboard=keyboard)
    assert made == 13
    assert_places_at_the_end(page, match.pk)
    table_within_screen(page)


def test_a_spectator_of_a_table_of_four_sees_no_hand(user_page, make_user):
    people = [make_user(name) for name in ("ann", "ben", "cid", "dot")]
    match = services.match_create(players=[Player(user=u) for u in people], seed=7, dealer=3,
                                  trumps="SHDC")
    watcher = make_user("watcher")
    page = user_page(watcher, viewport=DESKTOP)
    page.goto(f"/game/{match.pk}/")
    # The template says the status; the ply is the board's, once the state has come.
    expect(page.locator("#game")).to_have_attribute("data-ply", "0")
    expect(page.get_by_test_id("status")).to_contain_text("You are watching this game")
    assert_screen_shows_what_the_viewer_may_know(page, match.pk, None)
    # A few moves later (made through the services, as the players' sockets would), the
    # spectator's board follows and still shows only what every player knows.
    for _ in range(6):
        match = Match.objects.get(pk=match.pk)
        game = selectors.match_game(match=match)
        assert game is not None
        move = str(game.state.legal_moves()[-1])
        services.move_apply(match_id=match.pk, seat=match.to_move, move=move,
                            expected_ply=match.ply)
        expect(page.locator("#game")).to_have_attribute("data-ply", str(match.ply + 1))
        assert_screen_shows_what_the_viewer_may_know(page, match.pk, None)
    assert page.locator("#game button.card").count() == 0
    # At phone width too, the spectator's page draws every seat, none of them whole.
    page.set_viewport_size(PHONE)
    drawn = seats_on_screen(page)
    assert len(drawn) == 4
    table_within_screen(page)
