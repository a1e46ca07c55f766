"""How a table of people ends in a real Chromium, on a server and worker whose waits are
shortened (`tests.games.fast_settings`, their own Celery queue): a player alone in a table
pool takes the AI's offer after the wait and the game starts with three AI seats; a player
closes their tab mid-game and the others finish with the AI in that seat; three people agree
a draw through the board's buttons. The deals are a few cards each, so that each test is
short."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from games.play.models import Match, Move, Seat, SeatResult, Status, TerminationReason
from games.play.services import Player, match_create
from games.play.time_control import TimeControl
from tests.browser.game_page import at_ply, autoplay, play_first_legal
from tests.games.sockets import session_cookie_for
from tests.support.processes import (
    ManagedProcess,
    start_celery_worker,
    start_daphne,
    wait_for_worker,
)
from tests.support.settle import wait_sockets_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUEUE = "yt-table-ends"
MATCH_URL = re.compile(r"/game/(\d+)/$")
# Three small hands (seat 1's the biggest, so that his turn comes again): a table of people
# that ends within a few dozen moves.
SMALL_DEAL = "SHD 7C8CQD/6C9CTC7H9D/JCKC8S - 0 -"


@pytest.fixture(scope="module")
def fast_site(server_env: dict[str, str], process_logs) -> Iterator[ManagedProcess]:
    """A daphne and a Celery worker with the short waits, on a queue of their own (the
    suite's worker, if running, plays no AI move of theirs)."""
    env = {**server_env, "DJANGO_SETTINGS_MODULE": "tests.games.fast_settings",
           "CELERY_QUEUE": QUEUE, "DJANGO_ALLOW_ASYNC_UNSAFE": ""}
    server = start_daphne(env, process_logs)
    worker = start_celery_worker(env, process_logs, name="table-ends")
    try:
        wait_for_worker(worker)
        yield server
    finally:
        worker.stop()
        server.stop()


@pytest.fixture(scope="module", autouse=True)
def _orm_beside_playwright(fast_site: ManagedProcess, asgi_server: ManagedProcess
                           ) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture
def open_as(browser, make_user) -> Iterator[Callable[..., object]]:
    """A page of `server` in its own context, logged in as a new user called `name`."""
    contexts = []

    def open_page(name: str, server: ManagedProcess):
        user = make_user(name)
        url = server.extra["url"]
        context = browser.new_context(base_url=url)
        context.set_default_timeout(15_000)
        context.add_cookies([{"name": "sessionid",
                              "value": session_cookie_for(user).split("=", 1)[1], "url": url}])
        contexts.append(context)
        page = context.new_page()
        page.user = user
        return page

    yield open_page
    for context in contexts:
        context.close()
    # End what the worker would play on, then let the servers record the closed sockets.
    Match.objects.filter(status__in=[Status.TRUMPS, Status.PLAYING]).update(
        status=Status.ABORTED, due_at=None)
    wait_sockets_settled()
    time.sleep(1)


def game_of(page) -> int:
    page.wait_for_url(MATCH_URL, wait_until="commit", timeout=30_000)
    return int(MATCH_URL.search(page.url).group(1))


def small_table(pages, **options) -> Match:
    match = match_create(players=[Player(user=page.user) for page in pages],
                         start_tpn=SMALL_DEAL, **options)
    for page in pages:
        page.goto(f"/game/{match.pk}/")
        at_ply(page, 0)
    return match


@pytest.mark.timeout(90)
def test_alone_in_a_table_pool_a_player_takes_the_ai_and_the_game_starts(open_as, fast_site):
    anna = open_as("anna", fast_site)
    anna.goto("/lobby/")
    anna.get_by_test_id("table-pools-4").locator("[data-pool]").first.click()
    expect(anna.get_by_test_id("searching")).to_be_visible()
    # Offered after the (shortened) wait.
    expect(anna.get_by_test_id("pool-fill-ai")).to_be_visible(timeout=10_000)
    anna.get_by_test_id("pool-fill-ai").click()

    match = Match.objects.get(pk=game_of(anna))
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert match.n_players == 4
    assert not match.rated  # the AI has no rating to stake
    assert [seat.user_id for seat in seats].count(anna.user.pk) == 1
    levels = [seat.ai_level for seat in seats if seat.user_id is None]
    assert len(levels) == 3
    assert all(level >= 3 for level in levels)
    game = anna.locator("#game")
    expect(game).to_have_attribute("data-players", "4")
    expect(game).to_have_attribute("data-status", re.compile("trumps|playing"))


@pytest.mark.timeout(120)
def test_a_player_who_closes_the_tab_is_replaced_by_the_ai_and_the_others_finish(
        open_as, fast_site):
    anna, boris, vera = (open_as(name, fast_site) for name in ("anna", "boris", "vera"))
    match = small_table([anna, boris, vera], time_control=TimeControl(300, 0))
    for page in (anna, vera):
        autoplay(page)
    # Boris plays his first move himself, then leaves on his next turn.
    at_ply(boris, 1)
    play_first_legal(boris)
    boris.wait_for_function("""() => {
      const g = document.getElementById('game');
      return g.dataset.status === 'playing' && Number(g.dataset.ply) > 2
        && g.dataset.toMove === g.dataset.you;
    }""")
    left_at = int(boris.locator("#game").get_attribute("data-ply"))
    boris.context.close()

    for page in (anna, vera):
        expect(page.locator("#game .seat[data-seat='1']")).to_contain_text(
            f"AI for {boris.user.username}", timeout=45_000)
        expect(page.locator("#game")).to_have_attribute("data-status", "finished",
                                                        timeout=45_000)
    seat = Seat.objects.get(match=match, index=1)
    assert seat.taken_over_ply == left_at
    assert Move.objects.filter(match=match, seat=1, ply__gt=left_at).exists()
    assert seat.result == SeatResult.LOSS  # as a resignation, whatever the AI made of it
    assert Match.objects.get(pk=match.pk).status == Status.FINISHED


@pytest.mark.timeout(90)
def test_three_people_agree_a_draw_through_the_board(open_as, asgi_server):
    anna, boris, vera = (open_as(name, asgi_server) for name in ("anna", "boris", "vera"))
    match = small_table([anna, boris, vera])

    boris.get_by_test_id("draw-offer").click()
    expect(boris.get_by_test_id("draw-offered")).to_have_text("Draw offered")
    names = {page: page.user.username for page in (anna, boris, vera)}
    expect(boris.get_by_test_id("draw-waiting")).to_have_text(
        f"Still to answer: {names[anna]} and {names[vera]}")
    for page in (anna, vera):
        expect(page.locator("[data-part=actions] .offer")).to_have_text(
            f"{names[boris]} offers a draw")
    anna.get_by_test_id("draw-accept").click()
    expect(anna.get_by_test_id("draw-offered")).to_have_text("You accepted the draw")
    expect(boris.get_by_test_id("draw-waiting")).to_have_text(f"Still to answer: {names[vera]}")
    expect(vera.get_by_test_id("draw-waiting")).to_have_count(0)  # only she is left to answer
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING

    vera.get_by_test_id("draw-accept").click()

    for page in (anna, boris, vera):
        expect(page.get_by_test_id("result-title")).to_have_text("Draw")
        expect(page.get_by_test_id("result-reason")).to_have_text("Draw by agreement")
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.AGREEMENT)
