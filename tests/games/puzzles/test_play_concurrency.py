"""Races on real PostgreSQL: the same end of a play sent twice at once (a double click, a
retried request racing the first) rates once and moves the streak once."""

from __future__ import annotations

import pytest

from accounts.models import PlayerRating, RatingMode
from games.puzzles.models import PuzzleAttempt, PuzzleStreak
from games.puzzles.services import puzzle_play_end, streak_puzzle
from tests.games.puzzles.made import THREE_MOVES, stored
from tests.support.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_ends_of_the_same_streak_puzzle_at_once_count_once(alice, settings):
    settings.PUZZLES_STREAK_START = 1500
    puzzle = stored(THREE_MOVES, rating=1500)
    chosen, _streak = streak_puzzle(user=alice, guest=None)
    assert chosen == puzzle

    def end():
        return puzzle_play_end(puzzle_id=puzzle.pk, user=alice, guest=None, solved=True)

    results = run_together(end, end, end)
    assert sorted(result.first for result in results) == [False, False, True]
    assert PuzzleAttempt.objects.filter(user=alice).count() == 1
    assert PlayerRating.objects.get(user=alice, mode=RatingMode.PUZZLE).games == 1
    row = PuzzleStreak.objects.get(user=alice)
    assert (row.current, row.best, row.puzzle_id) == (1, 1, None)
