"""What the browser tests of the game page share: reading the board and playing on it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.play.models import Seat

MATCH_URL = re.compile(r"/game/(\d+)/$")
MATCH_SOCKET = re.compile(r"/ws/match/\d+/$")
ABNORMAL_CLOSE = 1006  # a connection that broke, without a close frame


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


# How long a move may take to arrive when it waits for its page to connect again: the
# socket's answer timeout (6 s), the wait before the next attempt and the handshake, on a
# machine that runs two browsers, servers and workers at once.
RECONNECTED_MS = 45_000


def at_ply(page, ply: int, *, timeout: float | None = None) -> None:
    expect(page.locator("#game")).to_have_attribute("data-ply", str(ply), timeout=timeout)


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
    move = take.get_attribute("data-move")
    take.click()
    return move


# A player in the page itself, as a person plays: every 30 ms, when it is the page's turn, it
# clicks a trump to choose (the first free one), or, when moves are on (`window.autoplayMoves`),
# a card that may be played (the first, or one at random with `window.autoplayRandom`; and
# the card it may go with, for a pair) rather than the take button; each turn once. Playing
# inside the pages lets several of them play at the pace of the server, not of this process
# asking each page in turn.
AUTOPLAY = """() => {
  const done = {};
  const pick = (nodes) => nodes[
    window.autoplayRandom ? Math.floor(Math.random() * nodes.length) : 0];
  setInterval(() => {
    const game = document.getElementById("game");
    const { status, ply, version } = game.dataset;
    if (status === "trumps") {
      const suit = game.querySelector("[data-testid^=choose-]:not(:disabled)");
      if (suit && !done["trump" + version]) { done["trump" + version] = true; suit.click(); }
      return;
    }
    if (!window.autoplayMoves || status !== "playing" || done[ply]) return;
    const hand = game.querySelector("[data-part=bottom]");
    const cards = [...hand.querySelectorAll("button.card.playable")];
    const take = game.querySelector("[data-testid=take]");
    if (!cards.length && !take) return;
    done[ply] = true;
    if (!cards.length) { take.click(); return; }
    pick(cards).click();
    const pair = [...hand.querySelectorAll("button.card.playable:not(.selected)")];
    if (hand.querySelector("button.card.selected") && pair.length) pick(pair).click();
  }, 30);
}"""


def autoplay(page, *, moves: bool = True, random: bool = False) -> None:
    """Start the page's own player (`AUTOPLAY`) once the board has its first state."""
    expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"^\d+$"))
    page.evaluate(f"() => {{ window.autoplayMoves = {str(moves).lower()};"
                  f" window.autoplayRandom = {str(random).lower()}; }}")
    page.evaluate(AUTOPLAY)


def play_move(page, move: str) -> None:
    """Play `move` as a person does: its cards clicked in its order, or the take button."""
    if move.startswith("+"):
        page.get_by_test_id("take").click()
        return
    for code in move.split("-"):
        click_card(card(page, code))


class SocketLine:
    """The line between a page and its match socket, through Playwright's WebSocket routing
    (install `route` with `page.route_web_socket(MATCH_SOCKET, line.route)` before the page
    opens): every message passes both ways unchanged. `cut()` breaks the connection as a
    network failure would; while `held`, the page's new connections break at once; `to_server`
    sends a frame as if the page had."""

    def __init__(self) -> None:
        self.held = False
        self.page_side = None
        self.server_side = None

    def route(self, ws) -> None:
        if self.held:
            ws.close(code=ABNORMAL_CLOSE, reason="the network is away")
            return
        self.page_side, self.server_side = ws, ws.connect_to_server()

    def cut(self) -> None:
        assert self.page_side is not None, "not connected"
        assert self.server_side is not None, "not connected"
        page_side, server_side = self.page_side, self.server_side
        self.page_side = self.server_side = None
        server_side.close()
        page_side.close(code=ABNORMAL_CLOSE, reason="the network broke")

    def to_server(self, text: str) -> None:
        assert self.server_side is not None, "not connected"
        self.server_side.send(text)
