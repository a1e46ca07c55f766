"""What the browser tests of the game page share: reading the board and playing on it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.play.models import Seat

MATCH_URL = re.compile(r"/game/(\d+)/$")


def match_id_of(page) -> int:
    # The match page is live play's: that the browser went there is what is checked here,
    # not how fast that page loads on a busy machine.
    page.wait_for_url(MATCH_URL, wait_until="commit", timeout=30_000)
    return int(MATCH_URL.search(page.url).group(1))


def players_of(match_id: int) -> set[str]:
    return set(Seat.objects.filter(match_id=match_id).values_list("user__username", flat=True))


def card(page, code: str):
    return page.locator(f'[data-part=bottom] button.card[data-card="{code}"]')


# Where a player clicks a card of their hand: its top-left corner, in view however much the
# fanned hand's cards overlap (the middle of a card may lie under the next one).
CORNER = {"x": 8, "y": 14}


def click_card(locator) -> None:
    locator.click(position=CORNER)


def at_ply(page, ply: int) -> None:
    expect(page.locator("#game")).to_have_attribute("data-ply", str(ply))


def play_first_legal(page) -> str:
    """Play like a beginner: the first card that may be played, else take. Returns the move."""
    board = page.locator("[data-part=bottom]")
    playable = board.locator("button.card.playable")
    expect(page.locator("[data-part=bottom] button.card.playable, [data-testid=take]").first
           ).to_be_visible()
    if playable.count():
        first = playable.first
        move = first.get_attribute("data-card")
        click_card(first)
        if board.locator("button.card.selected").count():
            second = board.locator("button.card.playable:not(.selected)").first
            move = f"{move}-{second.get_attribute('data-card')}"
            click_card(second)
        return move
    take = page.get_by_test_id("take")
    legal = page.evaluate("window.yourTrumpsBoard.board.state.legal_moves")
    take.click()
    return next(m for m in legal if m.startswith("+"))
