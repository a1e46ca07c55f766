"""Tables in a real Chromium against a real daphne (PostgreSQL, Redis, a Celery worker for the
AI): four people sit down at a table through the lobby and play it to its end; one person
fills the other three seats with the AI, starts, and plays to the end.

The games are played through each page's own socket with the moves the state offers
(`legal_moves`), as the page's board would send them: this tests the way from the lobby to
the end of a table, whichever board draws it. The pages choose their trumps and play the last
plies; the middle of the game is played through the services, the door of the pages' sockets,
while the pages look on. A random game of four can last more than a thousand plies, so the
four people play a line chosen here in advance, whose end is known; beside AI seats the
page plays by itself (the whole game of a person and AI seats in the page is
tests/browser/test_table_board.py's)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from games.play import services
from games.play.models import Match, Seat, Status
from games.play.selectors import match_game
from games.rules import MOVE_LIMIT, State
from tests.browser.game_page import at_ply, autoplay, play_move
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MATCH_URL = re.compile(r"/game/(\d+)/$")
GAME_SECONDS = 500
# A whole deal of four people, each in a Chromium page, on a machine that may be busy: more than
# the suite's 300 s per test.
TABLE_TIMEOUT = 600

# Plies left to the page after the services have played the middle of the game: every seat
# moves several times before the end.
PAGE_PLIES = 30
# Lines tried for the rest of a game of four people: played as the pages play, a game lasts
# about 800 plies on average and up to the rules' limit, every ply sent to four pages; the
# shortest of 30 that leaves the services at least `MIDDLE_PLIES` lasts some 60 plies.
LINES_TRIED = 30
MIDDLE_PLIES = 10


@pytest.fixture(scope="module", autouse=True)
def _orm_beside_playwright(asgi_server: ManagedProcess) -> Iterator[None]:
    """Sync Playwright runs an event loop in this thread, which Django takes for an async
    context; nothing here is async, so allow the ORM (the server keeps its own check)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(autouse=True)
def _servers_quiet_before_the_flush() -> Iterator[None]:
    yield
    wait_until_servers_are_quiet()


@pytest.fixture
def player_page(new_page: Callable[..., object], asgi_server: ManagedProcess):
    """A page whose browser context is logged in as a new user of that name."""

    def open_as(name: str):
        user = get_user_model().objects.create_user(name, password="pw-Xk39-long")
        client = Client()
        client.force_login(user)
        page = new_page()
        page.context.add_cookies([{
            "name": "sessionid", "value": client.cookies["sessionid"].value,
            "url": asgi_server.extra["url"],
        }])
        return page

    return open_as


def match_id_of(page) -> int:
    page.wait_for_url(MATCH_URL, wait_until="commit", timeout=30_000)
    return int(MATCH_URL.search(page.url).group(1))


def cards_first_move(state: State, rng: random.Random) -> str:
    """A legal move, a card played rather than a take when there is one, as the pages play."""
    legal = [str(move) for move in state.legal_moves()]
    cards = [move for move in legal if not move.startswith("+")]
    return rng.choice(cards or legal)


def plies_left(state: State, rng: random.Random, most: int) -> int:
    """How long the game from `state` lasts when played on as the pages play, counted up to
    `most` plies (a whole game played on may run to the rules' limit of its length)."""
    state, plies = state.clone(), 0
    while not state.is_over() and plies < min(most, MOVE_LIMIT):
        state.apply(cards_first_move(state, rng))
        plies += 1
    return plies


def play_the_middle(match_id: int, *, leave: int) -> None:
    """Once the trumps are chosen, play the people's seats through the services (the AI seats
    are the worker's) until about `leave` plies are left, or the person's next move may end
    the game, or the one person still in has two cards or fewer: a move may take at most two
    cards out of a hand, and the move that ends the game or takes the person out is the
    page's."""
    wait_for_the_trumps(match_id)
    deadline = time.monotonic() + GAME_SECONDS
    rng = random.Random(match_id)
    people = set(Seat.objects.filter(match_id=match_id, user__isnull=False)
                 .values_list("index", flat=True))
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if match.status != Status.PLAYING:
            return
        if match.to_move not in people:
            # The worker moves for the AI seat; only a person's move, the next one here, can
            # take the last person out.
            time.sleep(0.02)
            continue
        state = State.from_tpn(match.position_tpn)
        still_in = [seat for seat in range(match.n_players) if seat not in state.out]
        people_in = [seat for seat in still_in if seat in people]
        if (plies_left(state, random.Random(0), leave + 1) <= leave
                or (len(still_in) == 2 and state.hand_size(state.to_move) <= 2)
                or (len(people_in) == 1 and state.hand_size(people_in[0]) <= 2)):
            return
        services.move_apply(match_id=match_id, seat=match.to_move,
                            move=cards_first_move(state, rng), expected_ply=match.ply)
    raise AssertionError(f"the middle of the game was not played in {GAME_SECONDS} s")


def wait_for_the_trumps(match_id: int) -> Match:
    deadline = time.monotonic() + GAME_SECONDS
    while not Match.objects.filter(pk=match_id, status=Status.PLAYING).exists():
        assert time.monotonic() < deadline, "the trumps were never chosen"
        time.sleep(0.05)
    return Match.objects.get(pk=match_id)


def rest_of_the_game(match: Match) -> list[str]:
    """The moves that end the game from where the match stands, chosen as the pages choose
    (with the whole history, which the draw rules read): the shortest of `LINES_TRIED`
    such lines that leave the services a middle to play, each given up once it is longer
    than the shortest so far."""
    game = match_game(match=match)
    assert game is not None
    rng = random.Random(match.pk)
    shortest: list[str] | None = None
    for _ in range(LINES_TRIED):
        line: list[str] = []
        while not game.is_over() and (shortest is None or len(line) < len(shortest)):
            move = cards_first_move(game.state, rng)
            game.play(move)
            line.append(move)
        if (game.is_over() and len(line) > PAGE_PLIES + MIDDLE_PLIES
                and (shortest is None or len(line) < len(shortest))):
            shortest = line
        for _move in line:
            game.undo()
    assert shortest is not None
    return shortest


def play_the_line_to_the_end(pages_by_seat: dict, match_id: int) -> None:
    """The pages choose their trumps; the services play a line to the end of the game but
    for its last plies, which each page sends over its own socket when its seat is to move;
    then each page shows the game over."""
    for page in pages_by_seat.values():
        autoplay(page, moves=False, random=True)
    match = wait_for_the_trumps(match_id)
    line = rest_of_the_game(match)
    by_services, by_pages = line[:-PAGE_PLIES], line[-PAGE_PLIES:]
    for move in by_services:
        services.move_apply(match_id=match_id, seat=match.to_move, move=move,
                            expected_ply=match.ply)
        match = Match.objects.get(pk=match_id)
    if by_services:
        # A page animates every move it is sent: after hundreds in a few seconds it is read
        # afresh rather than waited for.
        for page in pages_by_seat.values():
            page.reload()
    for move in by_pages:
        page = pages_by_seat[match.to_move]
        at_ply(page, match.ply)
        play_move(page, move)
        deadline = time.monotonic() + 30
        while Match.objects.filter(pk=match_id, ply=match.ply).exists():
            assert time.monotonic() < deadline, f"the page's move {move} never arrived"
            time.sleep(0.02)
        match = Match.objects.get(pk=match_id)
    assert match.status == Status.FINISHED
    for page in pages_by_seat.values():
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")


def play_to_the_end(pages, match_id: int) -> None:
    """The pages choose their trumps; the services play the middle of the game, and the pages
    their seats to the end; then each page shows it over (after a reload, which reads the
    state afresh, if its socket had not shown it yet)."""
    for page in pages:
        autoplay(page, moves=False, random=True)
    play_the_middle(match_id, leave=PAGE_PLIES)
    for page in pages:
        page.evaluate("() => { window.autoplayMoves = true; }")
    deadline = time.monotonic() + GAME_SECONDS
    while not Match.objects.filter(pk=match_id, status=Status.FINISHED).exists():
        if time.monotonic() > deadline:
            match = Match.objects.get(pk=match_id)
            raise AssertionError(f"the table did not finish in {GAME_SECONDS} s: the match at "
                                 f"ply {match.ply}, {match.status}")
        time.sleep(0.2)
    for page in pages:
        game = page.locator("#game")
        if game.get_attribute("data-status") != "finished":
            page.reload()
        expect(game).to_have_attribute("data-status", "finished")


def create_table(page, *, players: str) -> None:
    page.goto("/lobby/")
    page.get_by_test_id("table-players").select_option(players)
    page.get_by_test_id("table-time-control").select_option("untimed")
    page.get_by_test_id("table-create").click()
    expect(page.get_by_test_id("my-table")).to_be_visible()


@pytest.mark.timeout(TABLE_TIMEOUT)
def test_four_people_sit_down_through_the_lobby_and_play_the_table_to_its_end(player_page):
    anna, boris, vera, gleb = (player_page(n) for n in ("anna", "boris", "vera", "gleb"))
    for page in (boris, vera, gleb):
        page.goto("/lobby/")
        expect(page.get_by_test_id("no-tables")).to_be_visible()
    create_table(anna, players="4")

    # The others see the table appear, and each seat taken, live.
    for joined, page in enumerate((boris, vera, gleb), start=1):
        listed = page.get_by_test_id("tables").get_by_test_id("table")
        expect(listed.get_by_test_id("table-terms")).to_contain_text("anna")
        expect(listed.locator("[data-kind=person]")).to_have_count(joined)
        page.get_by_test_id("tables").get_by_test_id("table-sit").first.click()
        if joined < 3:
            expect(page.get_by_test_id("my-table")).to_be_visible()
            expect(anna.get_by_test_id("my-table").locator("[data-kind=person]")
                   ).to_have_count(joined + 1)

    ids = {match_id_of(page) for page in (anna, boris, vera, gleb)}
    assert len(ids) == 1
    match_id = ids.pop()
    assert set(Seat.objects.filter(match_id=match_id).values_list("user__username", flat=True)
               ) == {"anna", "boris", "vera", "gleb"}
    for page in (anna, boris, vera, gleb):
        expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"\d+"))

    seats = dict(Seat.objects.filter(match_id=match_id).values_list("user__username", "index"))
    pages = {"anna": anna, "boris": boris, "vera": vera, "gleb": gleb}
    play_the_line_to_the_end({seats[name]: page for name, page in pages.items()}, match_id)

    match = Match.objects.get(pk=match_id)
    assert match.status == Status.FINISHED
    assert match.n_players == 4
    assert Seat.objects.filter(match=match, place__isnull=False).count() == 4


@pytest.mark.timeout(TABLE_TIMEOUT)
def test_one_person_fills_three_seats_with_the_ai_starts_and_plays_to_the_end(
    player_page, celery_worker
):
    anna = player_page("anna")
    create_table(anna, players="4")
    mine = anna.get_by_test_id("my-table")
    for filled in (1, 2, 3):
        empty = mine.locator("[data-kind=empty]").first
        empty.get_by_test_id("table-ai-level").select_option("2")
        empty.get_by_test_id("table-fill-ai").click()
        expect(mine.locator("[data-kind=ai]")).to_have_count(filled)
    anna.get_by_test_id("table-start").click()

    match_id = match_id_of(anna)
    assert list(Seat.objects.filter(match_id=match_id).order_by("index")
                .values_list("ai_level", flat=True)) == [None, 2, 2, 2]

    play_to_the_end([anna], match_id)

    match = Match.objects.get(pk=match_id)
    assert match.status == Status.FINISHED
    assert Seat.objects.filter(match=match, place__isnull=False).count() == 4
