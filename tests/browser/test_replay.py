"""The replay page in Chromium: stepping with buttons and keys lands on the positions the
rules engine computed, a ply link opens there, and export then import replays the same game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import timezone

from games.play.services import Player
from games.play.time_control import TimeControl
from games.replays.selectors import replay_of_match
from tests.games.replays.conftest import play_match
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess) -> Iterator[None]:
    """Start the server first, then let the ORM run beside sync Playwright's event loop
    (this thread is not async; the server's process keeps Django's check)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


READ = """
  const root = document.getElementById("replay-board");
  const cards = (sel) => [...root.querySelectorAll(sel)].map((c) => c.dataset.card);
  const seats = [...root.querySelectorAll(".hand[data-testid^=hand-]")];
  const hands = {};
  for (const hand of seats) {
    const index = hand.dataset.testid.split("-")[1];
    const shown = [...hand.querySelectorAll(".card[data-card]")].map((c) => c.dataset.card);
    hands[index] = [shown.sort(), hand.querySelectorAll(".card.back").length];
  }
  return {
    ply: Number(document.querySelector("[data-testid=replay]").dataset.ply),
    hands,
    pile: cards("[data-testid=pile] .card[data-card]"),
    moved: cards(".card.last, .card.just-taken").sort(),
  };
"""
READ_BOARD = "() => {" + READ + "}"
# Every ply in one call: click "first", then read and click "next" until the end.
READ_EVERY_PLY = """() => {
  const read = () => {""" + READ + """};
  const out = [];
  document.querySelector("[data-testid=first]").click();
  const next = document.querySelector("[data-testid=next]");
  out.push(read());
  while (!next.disabled) { next.click(); out.push(read()); }
  return out;
}"""


def split(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def expected(position: dict) -> dict:
    return {
        "hands": {str(i): [sorted(split(cards)), hidden]
                  for i, (cards, hidden) in enumerate(position["hands"])},
        "pile": split(position["pile"]),
    }


def assert_shown(shown: dict, positions: list[dict], ply: int) -> None:
    assert shown["ply"] == ply
    want = expected(positions[ply])
    assert shown["hands"] == want["hands"], f"hands at ply {ply}"
    assert shown["pile"] == want["pile"], f"pile at ply {ply}"
    move = positions[ply]["move"]
    if move and not move.startswith("+"):
        assert shown["moved"] == sorted(move.split("-")), f"highlight at ply {ply}"


def assert_at(page, positions: list[dict], ply: int) -> None:
    # A function, not an expression: Playwright evaluates an expression with `eval`, which
    # the site's Content-Security-Policy refuses.
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay]').dataset.ply === '{ply}'")
    assert_shown(page.evaluate(READ_BOARD), positions, ply)


@pytest.fixture
def finished_duel(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-Xk39-long")
    bob = django_user_model.objects.create_user("bob", password="pw-Xk39-long")
    # Played from now on: its flag deadline (seen by the deadline watch of a Celery worker that
    # another module may have started) must not fall in the past while the moves are played.
    return play_match([Player(user=alice), Player(user=bob)],
                      time_control=TimeControl(180, 2), start=timezone.now())


def test_a_finished_replay_steps_with_buttons_and_keys(page, analysed_duel):
    finished_duel = analysed_duel
    positions = replay_of_match(match=finished_duel).data["positions"]
    last = len(positions) - 1
    page.goto(f"/game/{finished_duel.pk}/replay")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    assert_at(page, positions, 0)
    for ply in range(1, 6):
        page.get_by_test_id("next").click()
        assert_at(page, positions, ply)
    assert page.get_by_test_id("status-mark").is_visible()  # move 5 changed the value
    assert page.get_by_test_id("mark-5").is_visible()
    assert page.get_by_test_id("analysis").get_attribute("data-status") == "done"
    page.get_by_test_id("prev").click()
    assert_at(page, positions, 4)
    assert page.get_by_test_id("status-mark").count() == 0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_at(page, positions, 6)
    page.keyboard.press("ArrowLeft")
    assert_at(page, positions, 5)
    page.keyboard.press("End")
    assert_at(page, positions, last)
    assert page.get_by_test_id("next").is_disabled()
    assert page.get_by_test_id("result").is_visible()
    page.keyboard.press("Home")
    assert_at(page, positions, 0)
    page.get_by_test_id("last").click()
    assert_at(page, positions, last)
    page.get_by_test_id("first").click()
    assert_at(page, positions, 0)
    # Clicking a move in the list jumps there, and the address remembers it.
    page.get_by_test_id("move-17").click()
    assert_at(page, positions, 17)
    assert page.url.endswith("#17")
    # Each seat's trump is shown, and the clocks of that ply.
    assert page.get_by_test_id("trump-0").get_attribute("data-suit") == "S"
    assert page.get_by_test_id("trump-1").get_attribute("data-suit") == "H"
    clock = positions[17]["clocks"][0] // 1000
    assert page.locator("[data-clock='0']").inner_text() == f"{clock // 60}:{clock % 60:02d}"
    # Autoplay moves on by itself.
    page.get_by_test_id("speed").select_option("200")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=replay]').dataset.ply) >= 19")
    page.get_by_test_id("autoplay").click()
    stopped = int(page.get_by_test_id("replay").get_attribute("data-ply"))
    assert stopped >= 19
    page.wait_for_timeout(500)
    assert_at(page, positions, stopped)  # and it stays there


def test_a_ply_link_opens_the_replay_there(new_page, finished_duel):
    positions = replay_of_match(match=finished_duel).data["positions"]
    page = new_page()
    page.goto(f"/game/{finished_duel.pk}/replay#12")
    assert_at(page, positions, 12)
    page = new_page()
    page.goto(f"/game/{finished_duel.pk}/replay?ply=9")
    assert_at(page, positions, 9)
    assert page.locator("[data-testid=move-9][aria-current=step]").count() == 1


def test_export_then_import_gives_the_same_replay(new_page, finished_duel, tmp_path):
    page = new_page(reduced_motion="reduce")  # no card animations: every ply in one pass
    positions = replay_of_match(match=finished_duel).data["positions"]
    page.goto(f"/game/{finished_duel.pk}/replay")
    with page.expect_download() as download:
        page.get_by_test_id("export-record").click()
    path = tmp_path / "record.txt"
    download.value.save_as(path)
    assert re.search(r'\[Seed "7"\]', path.read_text())

    page.goto("/replay/import")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_test_id("import-submit").click()
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    shown = page.evaluate(READ_EVERY_PLY)
    assert len(shown) == len(positions)
    for ply, board in enumerate(shown):
        assert_shown(board, positions, ply)
    imported = page.evaluate("() => JSON.parse("
                             "document.getElementById('replay-data').textContent).positions")
    assert imported == positions  # clocks and times per move included

    # The imported replay exports the same record again.
    with page.expect_download() as download:
        page.get_by_test_id("export-record").click()
    again = tmp_path / "again.txt"
    download.value.save_as(again)
    assert again.read_text() == path.read_text()


def test_an_invalid_record_names_the_line(page):
    page.goto("/replay/import")
    page.locator("textarea").fill('[Variant "standard"]\n[Seed "x"]\n\n1. 9H\n')
    page.get_by_test_id("import-submit").click()
    error = page.get_by_test_id("record-error")
    assert error.get_attribute("data-line") == "2"
    assert "Seed" in page.get_by_test_id("record-problem").inner_text()
    assert "Seed" in page.get_by_test_id("fault-line").inner_text()


def in_thread(call):
    """Run a service call off this thread: sync Playwright keeps an event loop here, and the
    services broadcast through async_to_sync after commit."""
    import threading

    from django.db import connection

    result: dict = {}

    def run() -> None:
        try:
            result["value"] = call()
        except BaseException as error:  # re-raised in the test's thread
            result["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if "error" in result:
        raise result["error"]
    return result.get("value")


def test_a_live_game_updates_for_spectators(page, django_user_model):
    from games.play import services
    from games.play.models import Match

    alice = django_user_model.objects.create_user("alice", password="pw-Xk39-long")
    bob = django_user_model.objects.create_user("bob", password="pw-Xk39-long")
    match = in_thread(lambda: services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=7, dealer=1, trumps="SH"))
    page.goto(f"/game/{match.pk}/replay")
    page.wait_for_selector("[data-testid=replay][data-socket=open]")
    assert page.get_by_test_id("live-badge").is_visible()

    def move(text: str) -> None:
        current = Match.objects.get(pk=match.pk)
        in_thread(lambda: services.move_apply(match_id=match.pk, seat=current.to_move,
                                              move=text, expected_ply=current.ply))

    for text in ("AC", "QH-8H", "TS-9C"):
        move(text)
    positions = replay_of_match(match=Match.objects.get(pk=match.pk)).data["positions"]
    assert_at(page, positions, 3)  # a spectator at the latest move follows the game
    page.keyboard.press("Home")
    move("KH-QC")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=move-list] li').length === 4")
    assert_at(page, positions, 0)  # one looking back stays where they are
    in_thread(lambda: services.match_resign(match_id=match.pk, seat=0))
    page.wait_for_selector("[data-testid=replay][data-live=false][data-ready=true]")
    assert "resign" in page.get_by_test_id("replay-result").inner_text().lower()


# --- the AI's analysis: the evaluation graph and the marks ------------------------------------

# Every attribute of the graph that is not words or names: plain decimals with a point.
GRAPH_NUMBERS = """() => {
  const bad = [];
  const svg = document.querySelector("[data-testid=eval-svg]");
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of node.attributes) {
      const named = ["aria-label", "class", "role"].includes(attr.name);
      if (named || attr.name.startsWith("data-")) continue;
      if (!/^[-0-9. MLZhrotae()]*$/.test(attr.value)) bad.push(`${attr.name}=${attr.value}`);
    }
  }
  return bad;
}"""


def analysis_of(match) -> dict:
    """An analysis of the match as the task stores it: estimates first, the end proven, an
    exact blunder on move 5, an estimated mistake on move 9 and an estimated inaccuracy on
    move 12."""
    from games.ai.analysis import Analysis, Evaluation, Judgement, Mistake
    from games.play.selectors import match_game
    from games.replays.services import analysis_view

    game = match_game(match=match)
    n = game.ply
    winner = 1.0 if match.loser_seat == 1 else -1.0
    values = [Evaluation(1.0, True)] * 5 + [Evaluation(-1.0, True)] + [
        Evaluation(round(-0.45 + 0.4 * (ply % 7) / 7, 3), False) for ply in range(6, n - 4)
    ] + [Evaluation(winner, True)] * 5
    mistakes = (
        Mistake(4, game.moves[4], Judgement.BLUNDER, True, 1.0, -1.0, (game.moves[3],)),
        Mistake(8, game.moves[8], Judgement.MISTAKE, False, 0.42, 0.17, (game.moves[7],)),
        Mistake(11, game.moves[11], Judgement.INACCURACY, False, -0.1, -0.23,
                (game.moves[10],)),
    )
    return {"status": "done", **analysis_view(Analysis(tuple(values), mistakes, 1000))}


@pytest.fixture
def analysed_duel(finished_duel):
    """The finished duel with its analysis stored (the server shares this cache)."""
    from django.core.cache import cache

    from games.replays.selectors import analysis_key

    cache.set(analysis_key(finished_duel.pk), analysis_of(finished_duel), 300)
    return finished_duel


MISTAKE_WORD = {"en": "Mistake", "pl": "Błąd", "ru": "Ошибка", "eu": "Akatsa"}


def graph_click(page, ply: int, last: int) -> None:
    page.get_by_test_id("eval-svg").scroll_into_view_if_needed()
    box = page.get_by_test_id("eval-svg").bounding_box()
    x = 6 + ply * (box["width"] - 12) / last
    page.mouse.click(box["x"] + x, box["y"] + box["height"] / 2)


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("pl", 390), ("pl", 1280),
                                                 ("ru", 1280), ("eu", 390)])
def test_the_evaluation_graph_and_the_marks(new_page, analysed_duel, language, width):
    errors: list[str] = []
    page = new_page(locale={"en": "en-US", "pl": "pl-PL", "ru": "ru-RU", "eu": "eu-ES"}[language],
                    viewport={"width": width, "height": 860})
    page.on("console", lambda message: message.type == "error"
            and not message.location.get("url", "").endswith("/favicon.ico")
            and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    positions = replay_of_match(match=analysed_duel).data["positions"]
    last = len(positions) - 1
    page.goto(f"/game/{analysed_duel.pk}/replay")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == language

    # The graph is drawn, with one point per position, and its numbers are SVG's.
    graph = page.get_by_test_id("eval-svg")
    assert graph.is_visible()
    line = page.get_by_test_id("eval-line").get_attribute("d")
    assert line.count("L") == last
    assert page.evaluate(GRAPH_NUMBERS) == []
    assert page.get_by_test_id("eval-exact").count() == 1  # the proven stretches
    box = graph.bounding_box()
    assert box["width"] <= width
    assert box["height"] > 50
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # The marks, on the graph and in the move list: exact and estimated ones differ.
    assert page.get_by_test_id("graph-mark-5").get_attribute("data-exact") == "true"
    assert page.get_by_test_id("graph-mark-9").get_attribute("data-exact") == "false"
    blunder, mistake = page.get_by_test_id("mark-5"), page.get_by_test_id("mark-9")
    assert (blunder.inner_text(), blunder.get_attribute("data-exact")) == ("??", "true")
    assert (mistake.inner_text(), mistake.get_attribute("data-exact")) == ("?", "false")
    assert page.get_by_test_id("mark-12").inner_text() == "?!"
    assert "exact" in blunder.get_attribute("class")
    assert "estimate" in mistake.get_attribute("class")
    assert blunder.get_attribute("title") != mistake.get_attribute("title")
    assert page.get_by_test_id("analysis").get_attribute("data-status") == "done"

    # Clicking the graph moves the replay to that ply, and the cursor follows.
    graph_click(page, 9, last)
    assert_at(page, positions, 9)
    assert page.get_by_test_id("eval-cursor").get_attribute("data-ply") == "9"
    note = page.get_by_test_id("status-mark")
    assert note.get_attribute("data-kind") == "mistake"
    assert MISTAKE_WORD[language] in note.inner_text()
    assert note.get_attribute("data-exact") == "false"
    decimal = "." if language == "en" else ","  # Basque as Spanish writes it: docs/i18n.md
    assert f"0{decimal}42" in note.inner_text()
    assert f"0{decimal}17" in note.inner_text()
    assert page.get_by_test_id("eval-now").get_attribute("data-exact") == "false"
    assert re.search(rf"\d{re.escape(decimal)}\d\d", page.get_by_test_id("eval-now").inner_text())
    graph_click(page, 5, last)
    assert_at(page, positions, 5)
    assert page.get_by_test_id("status-mark").get_attribute("data-exact") == "true"
    assert page.get_by_test_id("eval-now").get_attribute("data-exact") == "true"
    graph_click(page, last, last)
    assert_at(page, positions, last)
    page.keyboard.press("Home")
    assert_at(page, positions, 0)
    assert page.get_by_test_id("eval-cursor").get_attribute("data-ply") == "0"
    assert errors == []


def test_the_graph_appears_when_the_analysis_is_done(page, finished_duel):
    from django.core.cache import cache

    from games.replays.selectors import analysis_key

    cache.set(analysis_key(finished_duel.pk), {"status": "pending"}, 300)
    page.goto(f"/game/{finished_duel.pk}/replay#9")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    assert page.get_by_test_id("analysis").get_attribute("data-status") == "pending"
    assert page.get_by_test_id("eval-panel").is_hidden()
    assert page.get_by_test_id("mark-9").count() == 0
    # The worker stores it; the page, polling, draws it where it stands.
    cache.set(analysis_key(finished_duel.pk), analysis_of(finished_duel), 300)
    page.wait_for_selector("[data-testid=analysis][data-status=done]", timeout=30_000)
    assert page.get_by_test_id("eval-svg").is_visible()
    assert page.get_by_test_id("mark-9").inner_text() == "?"
    assert page.get_by_test_id("replay").get_attribute("data-ply") == "9"
    assert page.get_by_test_id("status-mark").get_attribute("data-kind") == "mistake"
