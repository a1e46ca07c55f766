"""Tournaments in a real Chromium against a real daphne and Celery worker, each person in
their own browser context and an anonymous watcher beside them; every game ends by a
resignation on the game's page.

- An arena of four: they join from its page and, at its start, are paired into two games and
  taken to them at once; one berserks from the game's page; one pauses from the arena's page
  during their game (so that three are free at once after) and resumes later; the freed
  players are paired again at once, never with someone they just played while another
  pairing is possible; one wins three in a row (on fire, the third doubled); the watcher's
  standings follow (rank, score, the sheet's marks, games).
- A Swiss of five over three rounds, made with the page's form: each round pairs two games
  and gives a bye to a player who had none, the next round starts when the round's last game
  ends, and the watcher's page shows the points with the bye's, the Buchholz and
  Sonneborn-Berger tie-breaks, and at the end the podium and the final table."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.play.models import Seat
from games.play.time_control import TimeControl
from games.tournaments import services
from games.tournaments.models import Participant, Tournament, TournamentGame
from tests.browser.game_page import MATCH_URL, autoplay, players_of
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A wait on the server (a pairing, a game's scoring, the standings' next state) on a machine
# busy with other work.
SERVER_WAIT_MS = 20_000


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(asgi_server: ManagedProcess, celery_worker: ManagedProcess,
                      orm_beside_playwright: None) -> None:
    """Start the server and the worker (its tick starts the tournaments and scores ended
    games) first, then the ORM."""


@pytest.fixture(scope="module", autouse=True)
def _patient_expect():
    expect.set_options(timeout=SERVER_WAIT_MS)
    yield
    expect.set_options(timeout=5_000)


def next_game(page, *, after: int | None = None) -> int:
    """Wait until the page is taken to a game other than `after`, and choose its trumps as
    they come to this player (the page's own clicks, `autoplay`); its match id."""
    def elsewhere(url: str) -> bool:
        found = MATCH_URL.search(url)
        return found is not None and found.group(1) != str(after)

    page.wait_for_url(elsewhere, wait_until="commit", timeout=SERVER_WAIT_MS)
    autoplay(page, moves=False)
    return int(MATCH_URL.search(page.url).group(1))


def resign(page) -> None:
    """Resign from the game's page once the trumps are chosen, as a person does (the page
    may go to the player's next game at once: what follows waits on the watcher's page)."""
    page.get_by_test_id("resign").click()
    confirm = page.get_by_test_id("resign-dialog-confirm")
    expect(confirm).to_be_enabled()
    confirm.click()


def row(watcher, user):
    return watcher.locator(f"[data-testid=standing][data-player={user.username}]")


def expect_row(watcher, user, *, rank: int | None = None, score: str | None = None,
               games: int | None = None) -> None:
    line = row(watcher, user)
    if score is not None:
        expect(line.get_by_test_id("score")).to_have_text(score)
    if rank is not None:
        expect(line.locator(".rank")).to_have_text(str(rank))
    if games is not None:
        expect(line.locator(".games")).to_have_text(str(games))


def start_now(tournament: Tournament) -> None:
    """Its start time comes: the worker's tick starts it (and pairs it) within a second."""
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())


def join(page, path: str) -> None:
    page.goto(path)
    page.get_by_test_id("tournament-join").click()
    expect(page.get_by_test_id("tournament-pause")).to_be_visible()  # joined, waiting


def test_an_arena_of_four_pairs_berserks_pauses_streaks_and_the_standings_follow(
        user_page, make_user):
    arena = services.tournament_create(
        creator=None, name="Browser arena", time_control=TimeControl(180, 2),
        starts_at=timezone.now() + timedelta(hours=1), minutes=60)
    people = [make_user(name) for name in ("anna", "boris", "clara", "dmitri")]
    pages = {user.pk: user_page(user) for user in people}
    watcher = user_page()
    path = f"/tournament/{arena.token}/"
    watcher.goto(path)
    expect(watcher.locator("[data-role=countdown-label]")).to_have_text("Starts in")
    for page in pages.values():
        join(page, path)
    expect(watcher.get_by_test_id("standing")).to_have_count(4)

    # The start: one wave pairs all four into two games, and takes each to theirs at once.
    start_now(arena)
    first = {user.pk: next_game(pages[user.pk]) for user in people}
    assert len(set(first.values())) == 2
    expect(watcher.get_by_test_id("arena-game")).to_have_count(2)
    expect(watcher.locator("[data-role=countdown-label]")).to_have_text("Ends in")
    g1, g2 = sorted(set(first.values()))
    by_id = {user.pk: user for user in people}
    p1, p2 = (by_id[seat.user_id] for seat in Seat.objects.filter(match_id=g1).order_by("user"))
    p3, p4 = (by_id[seat.user_id] for seat in Seat.objects.filter(match_id=g2).order_by("user"))

    # p1 berserks on the game's page before the first move: half their time.
    pages[p1.pk].get_by_test_id("berserk").click()
    expect(pages[p1.pk].get_by_test_id("arena-strip")).to_be_visible()
    expect(pages[p1.pk].get_by_test_id("berserk")).to_have_count(0)
    assert Seat.objects.get(match_id=g1, user=p1).berserk
    autoplay(pages[p1.pk], moves=False)  # the berserk reloaded the page

    # p4 goes to the arena's page from the game's strip, pauses (the game goes on), and
    # comes back to the game by the page's link to it.
    page4 = pages[p4.pk]
    page4.get_by_test_id("arena-link").click()
    page4.get_by_test_id("tournament-pause").click()
    expect(page4.get_by_test_id("tournament-join")).to_have_text("Resume")
    page4.get_by_test_id("your-game").get_by_role("link").click()
    page4.wait_for_url(f"**/game/{g2}/")
    autoplay(page4, moves=False)

    # p4 resigns: p3 scores 2 and waits alone (p4 is paused), on the page of the game.
    resign(page4)
    expect_row(watcher, p3, score="2", games=1)
    expect(row(watcher, p4).locator(".paused")).to_be_visible()
    expect(watcher.get_by_test_id("arena-game")).to_have_count(1)

    # p2 resigns: p1's berserk win scores 3. Three are free: p1 meets p3, not p2 again.
    resign(pages[p2.pk])
    g3 = next_game(pages[p1.pk], after=g1)
    assert next_game(pages[p3.pk], after=g2) == g3
    assert players_of(g3) == {p1.username, p3.username}
    assert MATCH_URL.search(pages[p2.pk].url).group(1) == str(g1)  # waits on that page
    expect_row(watcher, p1, rank=1, score="3", games=1)
    expect(row(watcher, p1).locator(".sheet-game.berserk")).to_have_text("3")
    expect_row(watcher, p2, score="0", games=1)

    # p3 resigns: p1's second win in a row puts them on fire. Of the three free, p1 just
    # played both others: p1 waits, and p2 meets p3.
    resign(pages[p3.pk])
    expect_row(watcher, p1, rank=1, score="5", games=2)
    expect(row(watcher, p1).get_by_test_id("on-fire")).to_be_visible()
    g4 = next_game(pages[p2.pk], after=g1)
    assert next_game(pages[p3.pk], after=g3) == g4
    assert players_of(g4) == {p2.username, p3.username}
    assert MATCH_URL.search(pages[p1.pk].url).group(1) == str(g3)

    # p4 resumes from the arena's page: paired at once with p1, and both taken to the game.
    page4.get_by_test_id("arena-link").click()
    page4.get_by_test_id("tournament-join").click()
    g5 = next_game(page4, after=g2)
    assert next_game(pages[p1.pk], after=g3) == g5
    assert players_of(g5) == {p1.username, p4.username}
    expect(row(watcher, p4).locator(".paused")).to_have_count(0)

    # On fire, p1's next win scores double: 4. p1 and p4 are the only free players: they
    # meet again at once.
    resign(page4)
    expect_row(watcher, p1, rank=1, score="9", games=3)
    expect(row(watcher, p1).locator(".sheet-game")).to_have_text(["3", "2", "4"])
    expect(row(watcher, p1).locator(".sheet-game.doubled")).to_have_text("4")
    expect_row(watcher, p3, rank=2, score="2", games=2)
    expect_row(watcher, p4, games=2)
    expect(watcher.get_by_test_id("standing").first).to_have_attribute(
        "data-player", p1.username)
    g6 = next_game(pages[p1.pk], after=g5)
    assert next_game(page4, after=g5) == g6

    pairs = [frozenset(game.user_ids()) for game in
             TournamentGame.objects.filter(tournament=arena).order_by("pk")]
    assert pairs == [frozenset(ids) for ids in ((p1.pk, p2.pk), (p3.pk, p4.pk),
                                                (p1.pk, p3.pk), (p2.pk, p3.pk),
                                                (p1.pk, p4.pk), (p1.pk, p4.pk))]
    for page in (*pages.values(), watcher):
        page.close()
    wait_until_servers_are_quiet()


def test_a_swiss_of_five_over_three_rounds_with_a_bye_each_round(user_page, make_user):
    people = [make_user(name) for name in ("eva", "fedor", "greta", "hugo", "irma")]
    a, b, c, d, e = people  # in the order of their ids: the order of equal ratings
    pages = {user.pk: user_page(user) for user in people}

    # Eva makes it with the page's form: casual, so that the ratings stay equal and the
    # pairings are the ones worked out below.
    creator = pages[a.pk]
    creator.goto("/tournaments/")
    creator.get_by_test_id("tournament-new").click()
    form = creator.get_by_test_id("tournament-form")
    form.get_by_label("Name").fill("Club Swiss")
    form.get_by_label("Kind").select_option("swiss")
    form.get_by_label("Time control").select_option("3+2")
    form.get_by_label("Starts in").select_option("5")
    form.get_by_label("Rounds").select_option("3")
    form.get_by_label("Rated").uncheck()
    creator.get_by_test_id("tournament-submit").click()
    creator.wait_for_url(re.compile(r"/tournament/[\w-]+/$"))
    swiss = Tournament.objects.get(name="Club Swiss")
    assert (swiss.kind, swiss.rounds, swiss.rated) == ("swiss", 3, False)
    path = f"/tournament/{swiss.token}/"

    watcher = user_page()
    watcher.goto(path)
    for user in people:
        join(pages[user.pk], path)
    expect(watcher.get_by_test_id("standing")).to_have_count(5)
    label = watcher.locator("[data-role=countdown-label]")

    # Each round: its two games (the player with the higher id resigns each), and the bye.
    # All on 0 points, E is the lowest ranked: the first bye. Round 2 ranks A, C, E (1 point)
    # above B, D: D has the bye, A meets C, E meets B. Round 3: A (2) above B, C, D, E (1);
    # E and D had a bye, so C has it; A has met B, and B-E would repeat, so A-E and B-D.
    rounds = [
        ({frozenset((a.pk, b.pk)), frozenset((c.pk, d.pk))}, e),
        ({frozenset((a.pk, c.pk)), frozenset((b.pk, e.pk))}, d),
        ({frozenset((a.pk, e.pk)), frozenset((b.pk, d.pk))}, c),
    ]
    start_now(swiss)
    at = {user.pk: None for user in people}  # the game each page shows
    for number, (pairs, bye) in enumerate(rounds, start=1):
        expect(label).to_have_text(f"Round {number} of 3")
        games = {}
        for user in people:
            if user != bye:
                at[user.pk] = next_game(pages[user.pk], after=at[user.pk])
                games.setdefault(at[user.pk], []).append(user)
        assert {frozenset(u.pk for u in players) for players in games.values()} == pairs
        expect(watcher.get_by_test_id("arena-game")).to_have_count(2)
        # The bye's point is in the watcher's standings at once, marked in the sheet.
        expect(row(watcher, bye).locator(".sheet-game").last).to_have_text("+")
        expect(row(watcher, bye).locator(".sheet-game").last).to_have_attribute("title", "Bye")
        first_game, last_game = sorted(games)
        resign(pages[max(games[first_game], key=lambda u: u.pk).pk])
        # The round goes on until its last game ends.
        expect(watcher.get_by_test_id("arena-game")).to_have_count(1)
        expect(label).to_have_text(f"Round {number} of 3")
        resign(pages[max(games[last_game], key=lambda u: u.pk).pk])

    byes = [[entry[0] for entry in participant.sheet if entry[1] == 0]
            for participant in Participant.objects.filter(tournament=swiss).order_by("user")]
    assert byes == [[], [], [3], [2], [1]]  # a different player each round

    # The end: 3 games each but for the byes. Points, Buchholz (the opponents' points, a bye
    # adding nothing), Sonneborn-Berger (the points of the opponents beaten).
    # A: beat B, C, E: 3 points; B 2 + E 1 + C 2 = 5; SB 5.
    # B: lost to A, beat E and D: 2; A 3 + E 1 + D 1 = 5; SB 2.
    # C: beat D, lost to A, bye: 2; D 1 + A 3 = 4; SB 1.
    # E: bye, lost to B and A: 1; B 2 + A 3 = 5; SB 0.
    # D: lost to C, bye, lost to B: 1; C 2 + B 2 = 4; SB 0.
    expect(label).to_have_text("Finished")
    final = [(a, "3", "5", "5"), (b, "2", "5", "2"), (c, "2", "4", "1"), (e, "1", "5", "0"),
             (d, "1", "4", "0")]
    expect(watcher.get_by_test_id("standing")).to_have_count(5)
    for rank, (user, points, buchholz, berger) in enumerate(final, start=1):
        line = watcher.get_by_test_id("standing").nth(rank - 1)
        expect(line).to_have_attribute("data-player", user.username)
        expect(line.locator(".rank")).to_have_text(str(rank))
        expect(line.get_by_test_id("score")).to_have_text(points)
        expect(line.get_by_test_id("buchholz")).to_have_text(buchholz)
        expect(line.get_by_test_id("sonneborn-berger")).to_have_text(berger)
    expect(watcher.get_by_test_id("podium")).to_be_visible()
    expect(watcher.get_by_test_id("podium-place")).to_have_text(
        [f"{a.username} · 3", f"{b.username} · 2", f"{c.username} · 2"])
    expect(watcher.get_by_test_id("arena-game")).to_have_count(0)
    for page in (*pages.values(), watcher):
        page.close()
    wait_until_servers_are_quiet()
