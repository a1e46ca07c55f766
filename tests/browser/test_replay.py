"""The replay page in Chromium: stepping with buttons and keys lands on the positions the
rules engine computed, a ply link opens there, and export then import replays the same game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.replays.selectors import replay_of_match
from games.services import Player
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


READ_BOARD = """() => {
  const root = document.getElementById("replay-board");
  const cards = (sel) => [...root.querySelectorAll(sel)].map((c) => c.dataset.card);
  const seats = [...root.querySelectorAll("[data-testid^=hand-]")];
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
}"""


def split(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def expected(position: dict) -> dict:
    return {
        "hands": {str(i): [sorted(split(cards)), hidden]
                  for i, (cards, hidden) in enumerate(position["hands"])},
        "pile": split(position["pile"]),
    }


def assert_at(page, positions: list[dict], ply: int) -> None:
    page.wait_for_function(
        f"document.querySelector('[data-testid=replay]').dataset.ply === '{ply}'")
    shown = page.evaluate(READ_BOARD)
    want = expected(positions[ply])
    assert shown["hands"] == want["hands"], f"hands at ply {ply}"
    assert shown["pile"] == want["pile"], f"pile at ply {ply}"
    move = positions[ply]["move"]
    if move and not move.startswith("+"):
        assert shown["moved"] == sorted(move.split("-")), f"highlight at ply {ply}"


@pytest.fixture
def finished_duel(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-Xk39-long")
    bob = django_user_model.objects.create_user("bob", password="pw-Xk39-long")
    return play_match([Player(user=alice), Player(user=bob)], clock_initial=180,
                      clock_increment=2)


def test_a_finished_replay_steps_with_buttons_and_keys(page, finished_duel):
    positions = replay_of_match(match=finished_duel).data["positions"]
    last = len(positions) - 1
    page.goto(f"/game/{finished_duel.pk}/replay")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    assert_at(page, positions, 0)
    for ply in range(1, 6):
        page.get_by_test_id("next").click()
        assert_at(page, positions, ply)
    page.get_by_test_id("prev").click()
    assert_at(page, positions, 4)
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
    assert_at(page, positions, 19)
    page.get_by_test_id("autoplay").click()


def test_a_ply_link_opens_the_replay_there(new_page, finished_duel):
    positions = replay_of_match(match=finished_duel).data["positions"]
    page = new_page()
    page.goto(f"/game/{finished_duel.pk}/replay#12")
    assert_at(page, positions, 12)
    page = new_page()
    page.goto(f"/game/{finished_duel.pk}/replay?ply=9")
    assert_at(page, positions, 9)
    assert page.locator("[data-testid=move-9][aria-current=step]").count() == 1


def test_export_then_import_gives_the_same_replay(page, finished_duel, tmp_path):
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
    for ply in range(len(positions)):
        assert_at(page, positions, ply)
        imported_clocks = page.evaluate(
            "(p) => JSON.parse(document.getElementById('replay-data').textContent)"
            ".positions[p].clocks", ply)
        assert imported_clocks == positions[ply]["clocks"]
        page.keyboard.press("ArrowRight")

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
