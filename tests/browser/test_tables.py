"""Tables in a real Chromium against a real daphne (PostgreSQL, Redis, a Celery worker for the
AI): four people sit down at a table through the lobby and play it to its end; one person
fills the other three seats with the AI, starts, and plays to the end.

The games are played through each page's own socket with the moves the state offers
(`legal_moves`), as the page's board would send them: this tests the way from the lobby to
the end of a table, whichever board draws it."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from games.play.models import Match, Seat, Status
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MATCH_URL = re.compile(r"/game/(\d+)/$")
GAME_SECONDS = 500
# A whole deal of four people, each in a Chromium page, on a machine that may be busy: more than
# the suite's 300 s per test.
TABLE_TIMEOUT = 600

# A player in the page itself: every 30 ms, choose a trump when it is theirs to choose, move
# when it is their turn (a card played rather than a take when there is one, so that games
# end sooner), each ply at most once. Playing inside the pages lets the four of them play at
# the pace of the server, not of this process asking each page in turn.
AUTOPLAY = """() => {
  const sent = {};
  setInterval(() => {
    const app = window.yourTrumpsBoard;
    const s = app && app.board.state;
    if (!s) return;
    if (s.status === "trumps" && s.trump_choice && s.trump_choice.chooser === s.you
        && !sent["trump" + s.version]) {
      sent["trump" + s.version] = true;
      app.socket.send({ type: "trump", suit: s.trump_choice.free[0] });
    } else if (s.status === "playing" && s.to_move === s.you && s.legal_moves.length
               && !sent[s.ply]) {
      sent[s.ply] = true;
      const plays = s.legal_moves.filter((move) => !move.startsWith("+"));
      const choices = plays.length ? plays : s.legal_moves;
      app.socket.send({ type: "move", move: choices[Math.floor(Math.random() * choices.length)],
                        ply: s.ply });
    }
  }, 30);
}"""


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


def play_to_the_end(pages, match_id: int) -> None:
    """Every page plays its seat until the game is over; then each page shows it over (after
    a reload, which reads the state afresh, if its socket had not shown it yet)."""
    for page in pages:
        page.wait_for_function("() => window.yourTrumpsBoard && window.yourTrumpsBoard.board.state")
        page.evaluate(AUTOPLAY)
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

    play_to_the_end([anna, boris, vera, gleb], match_id)

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
