"""The board as a player handles it, in Chromium at a desktop's width (1280 px) and a phone's
(390 px): resigning asks first and no slip passes; the move list of a 1,100-ply game keeps the
latest move in view in the game and the replay; the header folds into a menu and the hand, its
clock, the status and the actions are in view together, 20 cards in one row; cards are dragged
onto the pile, played by keys, and chosen ahead as premoves."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.play import selectors, services
from games.play.models import Match, Status
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.browser.game_page import at_ply, card, click_card
from tests.browser.hearing import heard, listen
from tests.browser.long_games import long_match_create
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start the server first, then let the ORM run beside Playwright."""


def duel(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, trumps="SH", seed=7
    )
    return match, alice, bob


@pytest.mark.parametrize("device", WIDTHS)
def test_resigning_asks_first_and_a_slip_cannot_pass(user_page, make_user, device):
    match, alice, _bob = duel(make_user)
    page = user_page(alice, **device)
    page.goto(f"/game/{match.pk}/")
    at_ply(page, 0)
    resign = page.get_by_test_id("resign")
    dialog = page.get_by_test_id("resign-dialog")
    confirm = page.get_by_test_id("resign-dialog-confirm")

    # A double click opens the question; its second click does not answer it.
    resign.dblclick()
    expect(dialog).to_be_visible()
    expect(confirm).to_be_disabled()
    page.wait_for_timeout(1000)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(resign).to_be_focused()

    # Enter twice: the first opens it, the second (on Cancel, where the focus starts) cancels.
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("resign-dialog-cancel")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)

    # Held down, Enter repeats: the question is still not answered.
    resign.focus()
    page.keyboard.down("Enter")
    page.keyboard.down("Enter")
    page.keyboard.up("Enter")
    page.wait_for_timeout(300)
    match.refresh_from_db()
    assert match.status == Status.PLAYING

    # Cancel closes it.
    resign.click()
    page.get_by_test_id("resign-dialog-cancel").click()
    expect(dialog).to_have_count(0)
    match.refresh_from_db()
    assert match.status == Status.PLAYING
    expect(page.get_by_test_id("result")).to_be_hidden()

    # A deliberate answer resigns.
    resign.click()
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(page.get_by_test_id("result-title")).to_have_text("You lost")
    expect(page.get_by_test_id("result-reason")).to_have_text("Resignation")
    match.refresh_from_db()
    assert (match.status, match.loser_seat) == (Status.FINISHED, 0)


# The whole list in one call: no sideways overflow, every number on its move's line, and the
# last move inside the list's box.
READ_LIST = """(selector) => {
  const list = document.querySelector(selector);
  const box = list.getBoundingClientRect();
  const rows = [...list.querySelectorAll("li")];
  const misnumbered = rows.filter((li, i) => {
    const number = li.querySelector(".move-number");
    const text = li.querySelector(".move-text");
    const a = number.getBoundingClientRect();
    const b = text.getBoundingClientRect();
    return number.textContent !== `${i + 1}.` || Math.abs(a.bottom - b.bottom) > 4
      || a.right > b.left + 1;
  }).length;
  const last = rows[rows.length - 1].getBoundingClientRect();
  return {
    rows: rows.length, misnumbered,
    sideways: list.scrollWidth > list.clientWidth + 1,
    pageSideways: document.documentElement.scrollWidth > window.innerWidth,
    lastInView: last.top >= box.top - 1 && last.bottom <= box.bottom + 1 && last.height > 0,
    scrollTop: list.scrollTop,
  };
}"""


def wheel_scrolls(page, selector: str) -> None:
    """The wheel over the list scrolls the list up."""
    page.locator(selector).scroll_into_view_if_needed()
    list_box = page.locator(selector).bounding_box()
    assert list_box is not None
    before = page.evaluate(READ_LIST, selector)["scrollTop"]
    page.mouse.move(list_box["x"] + list_box["width"] / 2, list_box["y"] + list_box["height"] / 2)
    page.mouse.wheel(0, -800)
    page.wait_for_function(
        f"() => document.querySelector('{selector}').scrollTop < {before}")


PLIES = 1100


def test_the_move_list_of_a_long_game_shows_its_latest_move(user_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = long_match_create(players=[Player(user=alice), Player(user=bob)], plies=PLIES)
    pages = {"desktop": user_page(alice, **DESKTOP), "phone": user_page(bob, **PHONE)}
    for page in pages.values():
        page.goto(f"/game/{match.pk}/")
        at_ply(page, PLIES)
        expect(page.locator("[data-part=moves] li")).to_have_count(PLIES)
        shown = page.evaluate(READ_LIST, "[data-part=moves]")
        assert shown == {**shown, "rows": PLIES, "misnumbered": 0, "sideways": False,
                         "pageSideways": False, "lastInView": True}
        wheel_scrolls(page, "[data-part=moves]")

    # One more move: back at the end of the list, which is redrawn no more than that row.
    game = selectors.match_game(match=Match.objects.get(pk=match.pk))
    assert game is not None
    move = str(game.legal_moves()[0])
    services.move_apply(match_id=match.pk, seat=game.state.to_move, move=move,
                        expected_ply=PLIES)
    for page in pages.values():
        at_ply(page, PLIES + 1)
        shown = page.evaluate(READ_LIST, "[data-part=moves]")
        assert (shown["rows"], shown["lastInView"], shown["misnumbered"]) == (PLIES + 1, True, 0)
        expect(page.locator("[data-part=moves] li.last")).to_have_attribute("data-move", move)

    # The replay: its list follows the position shown, and scrolls alone, not the page.
    for page in pages.values():
        page.goto(f"/game/{match.pk}/replay#{PLIES + 1}")
        expect(page.get_by_test_id(f"move-{PLIES + 1}")).to_have_class("move current")
        shown = page.evaluate(READ_LIST, "#move-list")
        assert (shown["sideways"], shown["pageSideways"], shown["lastInView"]) == (
            False, False, True)
        wheel_scrolls(page, "#move-list")
        scroll_y = page.evaluate("window.scrollY")
        page.keyboard.press("Home")  # the deal: no move yet, the list at its top
        expect(page.locator("#move-list .move.current")).to_have_count(0)
        assert page.evaluate("document.getElementById('move-list').scrollTop") == 0
        page.keyboard.press("End")
        expect(page.get_by_test_id(f"move-{PLIES + 1}")).to_have_class("move current")
        assert page.evaluate(READ_LIST, "#move-list")["lastInView"]
        # The page stays where it was (give or take the status line's height changing above,
        # which the browser's scroll anchoring follows): the list scrolled, not the window.
        assert abs(page.evaluate("window.scrollY") - scroll_y) <= 40


@pytest.mark.parametrize("device", WIDTHS)
def test_the_header_folds_into_a_menu_on_a_phone(user_page, make_user, device):
    page = user_page(make_user("alice"), **device)
    page.goto("/")
    menu = page.get_by_test_id("menu-button")
    lobby = page.get_by_test_id("nav-lobby")
    if device is DESKTOP:
        expect(menu).to_be_hidden()
        expect(lobby).to_be_visible()
        expect(page.get_by_test_id("logout")).to_be_visible()
        return
    header = page.locator(".site-header").bounding_box()
    assert header is not None
    assert header["height"] <= 56  # one line, not three
    expect(lobby).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(lobby).to_be_visible()
    expect(page.get_by_test_id("logout")).to_be_visible()
    page.keyboard.press("Escape")
    expect(lobby).to_be_hidden()
    expect(menu).to_be_focused()
    menu.click()
    lobby.click()
    page.wait_for_url("**/lobby/")


# Seat 0 holds 20 cards.
TWENTY_CARDS = "SH 6C7C8C9CTCJCQCKCAC6D7D8D9DTDJDQDKDAD6H7H/8H9HTHJHQHKH - 0 -"

# Where the hand's cards and the controls beside it are, in one call.
READ_HAND = """() => {
  const hand = document.querySelector("[data-part=bottom] .hand");
  const cards = [...hand.querySelectorAll(".card")];
  const inView = (node) => {
    const r = node.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0
      && r.right <= window.innerWidth;
  };
  const steps = cards.slice(1).map((c, i) => c.offsetLeft - cards[i].offsetLeft);
  return {
    cards: cards.length,
    rows: new Set(cards.map((c) => c.offsetTop)).size,
    inside: cards.every((c) => c.offsetLeft >= 0
      && c.offsetLeft + c.offsetWidth <= hand.clientWidth + 1),
    narrowest: Math.min(...steps),
    fanned: hand.classList.contains("fan"),
    inView: ["[data-part=bottom] .hand", "[data-clock='0']", "[data-testid=status]",
             "[data-testid=resign]", "[data-part=center] .pile"]
      .filter((s) => !inView(document.querySelector(s))),
    scrollY: window.scrollY,
    sideways: document.documentElement.scrollWidth > window.innerWidth,
  };
}"""


@pytest.mark.parametrize("device", WIDTHS)
def test_the_hand_its_clock_the_status_and_the_actions_are_in_view(user_page, make_user,
                                                                    device, tmp_path):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, start_tpn=TWENTY_CARDS,
        time_control=TimeControl(300, 2),
    )
    page = user_page(alice, **device)
    page.goto(f"/game/{match.pk}/")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    held = page.evaluate(READ_HAND)
    assert held == {**held, "cards": 20, "rows": 1, "inside": True, "inView": [],
                    "scrollY": 0, "sideways": False}
    assert held["narrowest"] >= 14  # each card's corner stays readable and tappable
    assert held["fanned"]  # 20 cards overlap at either width
    page.screenshot(path=str(tmp_path / "board.png"))


# Seat 0 leads 7C; seat 1 beats with 8C and lays KD; seat 0 cannot beat KD and takes 3;
# seat 1 leads its last card 6D and wins.
SHORT_DUEL = "SH 7C9D/6D8CKD - 0 -"


def short_duel(user_page, make_user, device):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, start_tpn=SHORT_DUEL
    )
    first, second = user_page(alice, **device), user_page(bob, **device)
    for page in (first, second):
        page.goto(f"/game/{match.pk}/")
        at_ply(page, 0)
    return match, first, second


def drag_onto_pile(page, code: str) -> None:
    """Press a card at its corner, carry it onto the pile in steps, let it go there (once the
    cards have come to rest: a move's animation carries them a moment)."""
    page.wait_for_function("""() => document.getAnimations().filter(
        (a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition)).length === 0""")
    node = page.locator(f'[data-part=bottom] button.card[data-card="{code}"]')
    box = node.bounding_box()
    pile = page.get_by_test_id("pile").bounding_box()
    assert box is not None
    assert pile is not None
    page.mouse.move(box["x"] + 8, box["y"] + 14)
    page.mouse.down()
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    expect(page.get_by_test_id("pile")).to_have_class(re.compile(r"\bdrop-here\b"))
    page.mouse.up()


@pytest.mark.parametrize("device", WIDTHS)
def test_cards_are_dragged_onto_the_pile(user_page, make_user, device):
    match, first, second = short_duel(user_page, make_user, device)
    drag_onto_pile(first, "7C")
    at_ply(second, 1)
    # The beater, then the card laid on it: two drags make the move.
    drag_onto_pile(second, "8C")
    expect(card(second, "8C")).to_have_attribute("aria-pressed", "true")
    drag_onto_pile(second, "KD")
    at_ply(first, 2)
    assert list(match.moves.values_list("text", flat=True)) == ["7C", "8C-KD"]
    # A card let go away from the pile goes back to the hand, and nothing is played.
    node = first.locator('[data-part=bottom] button.card[data-card="9D"]')
    box = node.bounding_box()
    assert box is not None
    first.mouse.move(box["x"] + 8, box["y"] + 14)
    first.mouse.down()
    first.mouse.move(box["x"] + 8, box["y"] - 60, steps=5)
    first.mouse.up()
    expect(node).not_to_have_class(re.compile(r"\bdragging\b"))
    first.wait_for_timeout(300)
    at_ply(first, 2)


@pytest.mark.parametrize("device", WIDTHS)
def test_the_keys_play_the_hand_and_a_premove_is_played_when_legal(user_page, make_user,
                                                                    device):
    match, first, second = short_duel(user_page, make_user, device)
    if device is DESKTOP:
        expect(first.get_by_test_id("keys-help")).to_be_visible()
    # Bob chooses 6D ahead; Alice leads, so Bob must beat: the premove is dropped, unsent.
    click_card(card(second, "6D"))
    expect(card(second, "6D")).to_have_class(re.compile(r"\bpremoved\b"))
    expect(second.get_by_test_id("status")).to_contain_text("Premove: six of diamonds")
    # Alice: → walks the hand, the digit on a card plays it.
    first.keyboard.press("ArrowRight")
    expect(card(first, "7C")).to_be_focused()
    first.keyboard.press("ArrowRight")
    expect(card(first, "9D")).to_be_focused()
    expect(card(first, "7C")).to_have_attribute("data-key", "1")
    first.keyboard.press("1")
    at_ply(second, 1)
    expect(second.locator("[data-part=bottom] .premoved")).to_have_count(0)
    expect(second.get_by_test_id("status")).to_contain_text("Your turn")
    # Bob: 1 chooses the only beater, 2 the second card that may follow it (KD).
    expect(card(second, "8C")).to_have_attribute("title", "Key 1")
    second.keyboard.press("1")
    expect(card(second, "8C")).to_have_attribute("aria-pressed", "true")
    second.keyboard.press("2")
    at_ply(first, 2)
    # While Alice thinks, Bob chooses 6D, takes it back with Esc, and chooses it again.
    click_card(card(second, "6D"))
    second.keyboard.press("Escape")
    expect(second.locator("[data-part=bottom] .premoved")).to_have_count(0)
    click_card(card(second, "6D"))
    # Alice takes with T; Bob's 6D, now a lead, goes at once and wins.
    first.keyboard.press("t")
    for page, title in ((first, "You lost"), (second, "You won")):
        expect(page.get_by_test_id("result-title")).to_have_text(title)
    assert list(match.moves.values_list("text", flat=True)) == ["7C", "8C-KD", "+3", "6D"]


@pytest.mark.parametrize("device", WIDTHS)
def test_the_game_sounds_its_moves_turns_takes_and_end_at_the_kept_volume(user_page, make_user,
                                                                         device):
    _match, first, second = short_duel(user_page, make_user, device)
    for page in (first, second):
        listen(page)
    # Bob turns the sound off; his page keeps it so after a reload.
    with second.expect_request_finished(lambda request: request.method == "POST"):
        second.get_by_test_id("sound-volume").fill("0")
    second.reload()
    at_ply(second, 0)
    expect(second.get_by_test_id("sound-volume")).to_have_value("0")
    click_card(card(first, "7C"))
    at_ply(second, 1)
    click_card(card(second, "8C"))
    click_card(card(second, "KD"))
    at_ply(first, 2)
    first.get_by_test_id("take").click()
    at_ply(second, 3)
    click_card(card(second, "6D"))
    expect(first.get_by_test_id("result-title")).to_have_text("You lost")
    expect(second.get_by_test_id("result-title")).to_have_text("You won")
    first.wait_for_function("() => window.tonesHeard.length >= 4")
    assert heard(first) == ["move", "turn", "take", "end"]
    assert heard(second) == []  # muted: nothing played, though Bob clicked his cards
    assert first.evaluate("localStorage.getItem('yourtrumps.soundVolume')") is None  # default

    # The volume is Bob's, not his browser's: kept in his account, found on another device.
    bob = User.objects.get(seats__match=_match, seats__index=1)
    assert bob.sound_volume == 0
    elsewhere = user_page(bob, **device)
    elsewhere.goto("/accounts/settings/")
    expect(elsewhere.get_by_test_id("settings-sound-volume")).to_have_value("0")
    elsewhere.get_by_test_id("settings-sound-volume").fill("40")
    elsewhere.get_by_test_id("sound-save").click()
    elsewhere.goto(f"/game/{_match.pk}/")
    expect(elsewhere.get_by_test_id("sound-volume")).to_have_value("40")
    assert elsewhere.evaluate("localStorage.getItem('yourtrumps.soundVolume')") is None
