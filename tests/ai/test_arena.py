"""The arena plays every deal in every seating and reports a score with its interval."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.ai.arena import run_arena
from games.ai.match import make_bot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_is_played_in_every_seating(players: int) -> None:
    report = run_arena("greedy", "random", deals=3, players=players)
    assert len(report.results) == 3 * players
    assert sorted((r.deal, r.seat_of_a) for r in report.results) == [
        (d, s) for d in range(3) for s in range(players)]
    assert 0.0 <= report.score <= 1.0
    assert report.margin >= 0.0


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


def test_unknown_bots_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
