"""The site in a real Chromium with its Content-Security-Policy on: every page works with no
console error and no policy violation (the game, the replay and the lobby with their
sockets), and logging out in one tab closes the game socket of another."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.matchmaking import services as matchmaking
from games.play import services
from games.play.services import Player
from tests.support.matches import moves_played
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
expect.set_options(timeout=15_000)

# Every page the brief of the policy names, and what shows that its script ran.
PAGES = {
    "home": ("/", "main"),
    "lobby": ("/lobby/", "[data-testid=pools] button"),
    "game": ("/game/{live}/", "#game[data-ply]"),
    "replay": ("/game/{finished}/replay", "[data-testid=move-list] li"),
    "history": ("/games/", "[data-testid=history]"),
    "profile": ("/@/{name}", "main"),
    "settings": ("/accounts/settings/", "[data-testid=language-form]"),
    "rules": ("/rules/", "main"),
    "leaderboard": ("/leaderboard/", "main"),
    "challenge": ("/challenge/{token}/", "[data-testid=challenge]"),
    "import": ("/replay/import", "form"),
}
SIGNED_OUT_PAGES = {"login": ("/accounts/login/", "form"), "signup": ("/accounts/signup/",
                                                                      "form")}
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, orm_beside_playwright: None) -> None:
    """The server first, then the ORM beside Playwright (`tests/browser/conftest.py`)."""


def watched(page) -> list[str]:
    """Console errors, uncaught exceptions and policy violations of `page`, as they come."""
    problems: list[str] = []
    page.add_init_script(WATCH)
    page.on("console", lambda m: problems.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"exception: {error}"))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    return problems


def visit(page, problems, url: str, ready: str) -> None:
    response = page.goto(url)
    assert response.status == 200, url
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    expect(page.locator(ready).first).to_be_attached()
    page.wait_for_timeout(300)  # late errors (a socket's first message) are collected too
    problems.extend(f"violation: {v}" for v in page.evaluate("window.__violations"))
    assert problems == [], url


@pytest.mark.usefixtures("sockets_settled")
def test_every_page_works_under_the_policy_with_no_console_error(user_page, new_page):
    User = get_user_model()
    alice = User.objects.create_user("alice-csp", password="pw-Xk39-long")
    bob = User.objects.create_user("bob-csp", password="pw-Xk39-long")
    live = services.match_create(players=[Player(user=alice), Player(user=bob)], trumps="SH",
                                 seed=1, dealer=0)
    finished = services.match_create(players=[Player(user=alice), Player(user=bob)],
                                     trumps="CD", seed=2, dealer=0)
    moves_played(finished, 1)
    services.match_resign(match_id=finished.pk, seat=0)
    challenge = matchmaking.challenge_create(challenger=bob, challenged=None,
                                             time_control="3+2", rated=False)
    names = {"live": live.pk, "finished": finished.pk, "token": challenge.token}

    # A player in no live match (the lobby sends a player in one to their game), and the
    # player of the live match on its page.
    carol = User.objects.create_user("carol-csp", password="pw-Xk39-long")
    names["name"] = carol.username
    page = user_page(carol)
    problems = watched(page)
    for name, (url, ready) in PAGES.items():
        if name != "game":
            visit(page, problems, url.format(**names), ready)
    player = user_page(alice)
    player_problems = watched(player)
    visit(player, player_problems, PAGES["game"][0].format(**names), PAGES["game"][1])

    guest = new_page()
    guest_problems = watched(guest)
    for url, ready in SIGNED_OUT_PAGES.values():
        visit(guest, guest_problems, url, ready)


@pytest.mark.usefixtures("sockets_settled")
def test_logging_out_in_one_tab_closes_the_game_socket_in_another(user_page):
    User = get_user_model()
    alice = User.objects.create_user("alice-out", password="pw-Xk39-long")
    bob = User.objects.create_user("bob-out", password="pw-Xk39-long")
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], trumps="SH")
    game_tab = user_page(alice)
    sockets = []
    game_tab.on("websocket", lambda ws: sockets.append(ws))
    game_tab.goto(f"/game/{match.pk}/")
    expect(game_tab.locator("#game[data-ply]")).to_be_attached()
    match_socket = next(ws for ws in sockets if "/ws/match/" in ws.url)
    assert not match_socket.is_closed()
    frames = []
    match_socket.on("framereceived", lambda frame: frames.append(frame))

    other_tab = game_tab.context.new_page()
    other_tab.goto("/")
    with match_socket.expect_event("close", timeout=5_000):
        other_tab.locator("form[action='/accounts/logout/'] button").click()
    assert any("session_ended" in str(frame) for frame in frames), frames
