"""The arena plays every deal in every seating and reports a score with its interval."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.ai.arena import run_arena, wilson_interval
from games.ai.match import make_bot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_is_played_in_every_seating(players: int) -> None:
    report = run_arena("greedy", "random", deals=3, players=players)
    assert len(report.results) == 3 * players
    assert sorted((r.deal, r.seats_of_a) for r in report.results) == [
        (d, (s,)) for d in range(3) for s in range(players)]
    assert 0.0 <= report.score <= 1.0
    assert report.margin >= 0.0


def test_two_bots_in_two_seats_each_meet_in_all_six_seatings() -> None:
    report = run_arena("greedy", "level1", deals=2, players=4, a_seats=2)
    assert sorted({r.seats_of_a for r in report.results}) == [
        (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert len(report.results) == 12
    for r in report.results:
        assert sorted(r.places)[0] == 1
        assert r.a_lost == (r.places.count(4) == 1 and r.places.index(4) in r.seats_of_a)
    share, pairs = report.pairs_ahead()
    assert pairs == 12 * 4
    gap, low, high = report.rating_gap()
    assert low <= gap <= high
    assert (gap > 0) == (share > 0.5)


@pytest.mark.parametrize(("players", "a_seats"), [(4, 0), (4, 4), (3, 3), (2, 2)])
def test_a_bot_cannot_take_no_seat_or_every_seat(players: int, a_seats: int) -> None:
    with pytest.raises(ValueError, match="seats"):
        run_arena("greedy", "random", deals=1, players=players, a_seats=a_seats)


@pytest.mark.parametrize(("successes", "trials"), [(0, 10), (3, 10), (10, 10), (0, 1),
                                                   (50, 200)])
def test_the_wilson_interval_holds_the_share_and_stays_in_bounds(successes: int,
                                                                 trials: int) -> None:
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0
    assert high - low < 1.0


def test_an_external_engine_plays_through_the_protocol() -> None:
    """The arena can pit the AI against another checkout's engine (here: this one)."""
    command = f"{sys.executable} -m games.ai"
    report = run_arena("greedy", f"ext:2:{command}", deals=1, players=3)
    assert len(report.results) == 3
    # Level 2 over the protocol is greedy: the same games as greedy against greedy.
    same = run_arena("greedy", "greedy", deals=1, players=3)
    assert [r.places for r in sorted(report.results, key=lambda r: r.seats_of_a)] == [
        r.places for r in sorted(same.results, key=lambda r: r.seats_of_a)]


def test_greedy_beats_random_clearly() -> None:
    report = run_arena("greedy", "random", deals=15, jobs=2)
    assert report.score > 0.75


def test_the_command_line_prints_the_score_and_times() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "games.ai.arena", "level1", "greedy", "--deals", "2",
         "--quiet"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "score of level1:" in out
    assert "95% CI" in out
    assert "plies per game" in out
    assert "time per move level1: median" in out
    assert "rating gap" in out


def test_the_command_line_seats_a_bot_twice() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "games.ai.arena", "greedy", "level1", "--players", "4",
         "--a-seats", "2", "--deals", "1", "--quiet"], cwd=ROOT, capture_output=True,
        text=True, check=True).stdout
    assert "greedy in 2 seats, 6 games" in out
    assert "chance 50.0%" in out


def test_unknown_bots_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


def test_a_level_at_a_budget_of_its_own_keeps_it_whatever_the_arena_gives() -> None:
    # Level 3 with no time plays the greedy baseline; at the arena's second a move it would
    # search two plies deep and play other games.
    report = run_arena("level3@0", "greedy", deals=2, movetime=1.0)
    same = run_arena("greedy", "greedy", deals=2)
    assert [(r.plies, r.places) for r in report.results] == [
        (r.plies, r.places) for r in same.results]


@pytest.mark.parametrize("name", ["level3@", "level3@fast", "level3@-5", "level9@100"])
def test_a_level_at_a_budget_is_named_level_n_at_milliseconds(name: str) -> None:
    with pytest.raises(ValueError, match="level"):
        make_bot(name)
