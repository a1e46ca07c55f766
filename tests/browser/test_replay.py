"""The replay page in Chromium: stepping with buttons and keys lands on the positions the
rules engine computed, a ply link opens there, and export then import replays the same game."""

from __future__ import annotations

import re

import pytest

from games.play.services import Player
from games.replays.selectors import replay_of_match
from tests.browser.replay_page import READ_EVERY_PLY, assert_at, assert_shown
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside sync Playwright's event loop."""


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
    # A take reads in words on the move list and in the status line, its notation kept apart.
    take = next(ply for ply, position in enumerate(positions)
                if ply and position["move"].startswith("+"))
    n = int(positions[take]["move"][1:])
    words = f"Take {n} card" if n == 1 else f"Take {n} cards"
    listed = page.get_by_test_id(f"move-{take}").locator(".move-text")
    assert listed.inner_text() == words
    page.get_by_test_id(f"move-{take}").click()
    assert_at(page, positions, take)
    assert page.get_by_test_id("status-move").inner_text() == words
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
