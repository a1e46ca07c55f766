"""The AI's analysis on the replay page in Chromium: the evaluation graph, the marks of the
moves, and the room they have on a wide screen and on a phone's."""

from __future__ import annotations

import re

import pytest

from games.replays.selectors import replay_of_match
from tests.browser.replay_page import analysis_of, assert_at
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside sync Playwright's event loop."""


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


# The words of the players' names in the move list that are cut across two lines.
NAMES_CUT = """() => {
  const cut = [];
  for (const cell of document.querySelectorAll("[data-testid=move-list] .move-seat")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const word of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (range.getClientRects().length > 1) cut.push(word[0]);
      }
    }
  }
  return cut;
}"""
# The felt left under the lowest hand, in CSS pixels.
FELT_UNDER_HANDS = """() => {
  const table = document.querySelector("#replay-board .table").getBoundingClientRect();
  const hands = document.querySelector("#replay-board [data-part=bottom]").getBoundingClientRect();
  return table.bottom - hands.bottom;
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_marked_moves_and_the_table_have_room(new_page, analysed_duel, width):
    page = new_page(viewport={"width": width, "height": 860})
    page.goto(f"/game/{analysed_duel.pk}/replay")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    assert page.get_by_test_id("mark-9").is_visible()
    # A marked move's row has the least room for its player's name: no word of it is cut.
    assert page.evaluate(NAMES_CUT) == []
    if width <= 900:
        # On a phone the felt ends under the last hand, as on the game page (a wide screen
        # keeps the table's height from ply to ply).
        assert page.evaluate(FELT_UNDER_HANDS) < 40
