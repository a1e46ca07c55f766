"""Puzzle ratings (Glicko-2 between the player and the puzzle, once per puzzle, guests
unrated) and the next-puzzle choice (nearest rating, never one played, themes, a range)."""

from __future__ import annotations

import pytest

from accounts.models import PlayerRating, RatingMode
from games.puzzles.models import Puzzle, PuzzleAttempt, Source, theme_bits
from games.puzzles.selectors import NEAR_ENTRIES, puzzle_next
from games.puzzles.services import puzzle_attempt_record

pytestmark = pytest.mark.django_db

LINE = [{"move": "AC", "player": True, "accepted": ["AC"]}]


def _puzzle(index: int, rating: float, themes: tuple[str, ...] = ()) -> Puzzle:
    return Puzzle.objects.create(tpn=f"DH KC6D7H/ACAH - 1 - #{index}", source=Source.SELF_PLAY,
                                 solution=LINE, themes=list(themes),
                                 theme_bits=theme_bits(themes), rating=rating)


def test_a_solve_is_a_win_against_the_puzzle_rated_once(alice):
    puzzle = _puzzle(1, 1500.0)
    first = puzzle_attempt_record(puzzle_id=puzzle.pk, user=alice, solved=True)
    assert first.first
    assert first.rating_before == 1500.0
    assert first.rating_after is not None
    assert first.rating_after > 1500.0
    puzzle.refresh_from_db()
    assert puzzle.rating < 1500.0
    assert puzzle.plays == 1
    again = puzzle_attempt_record(puzzle_id=puzzle.pk, user=alice, solved=False)
    assert not again.first  # a second tab or a repeated request changes nothing
    assert again.rating_after == first.rating_after
    row = PlayerRating.objects.get(user=alice, mode=RatingMode.PUZZLE)
    assert (row.rating, row.games) == (first.rating_after, 1)
    assert PuzzleAttempt.objects.filter(user=alice).count() == 1


def test_a_failure_lowers_the_rating_and_guests_are_unrated(alice):
    puzzle = _puzzle(1, 1500.0)
    failed = puzzle_attempt_record(puzzle_id=puzzle.pk, user=alice, solved=False)
    assert failed.rating_after is not None
    assert failed.rating_after < 1500.0
    guest = puzzle_attempt_record(puzzle_id=puzzle.pk, user=None, solved=True)
    assert (guest.rating_before, guest.rating_after) == (None, None)
    assert guest.attempt.user is None
    puzzle.refresh_from_db()
    assert puzzle.plays == 1


def test_unknown_puzzle_is_refused(alice):
    with pytest.raises(Puzzle.DoesNotExist):
        puzzle_attempt_record(puzzle_id=999_999, user=alice, solved=True)


def test_the_next_puzzle_is_the_nearest_never_played(alice):
    near, far, played = _puzzle(1, 1520.0), _puzzle(2, 1700.0), _puzzle(3, 1500.0)
    low = _puzzle(4, 1390.0)
    puzzle_attempt_record(puzzle_id=played.pk, user=alice, solved=True)
    assert puzzle_next(user_id=alice.pk, target=1500.0) == near
    assert puzzle_next(user_id=alice.pk, target=1800.0) == far  # harder
    assert puzzle_next(user_id=alice.pk, target=1200.0) == low  # easier
    played.refresh_from_db()  # the solve moved its rating
    assert puzzle_next(user_id=None, target=played.rating) == played  # a guest played none
    assert puzzle_next(user_id=None, target=1500.0, exclude=(played.pk,)) == near
    for puzzle in (near, far, low):
        puzzle_attempt_record(puzzle_id=puzzle.pk, user=alice, solved=False)
    assert puzzle_next(user_id=alice.pk, target=1500.0) is None


def test_several_themes_at_once_and_a_rating_range(alice):
    both = _puzzle(1, 1900.0, ("last_card", "long_line"))
    one = _puzzle(2, 1500.0, ("last_card",))
    _puzzle(3, 1500.0, ("long_line", "sacrifice"))
    assert puzzle_next(user_id=alice.pk, target=1500.0,
                       themes=("last_card", "long_line")) == both
    assert puzzle_next(user_id=alice.pk, target=1900.0, themes=("last_card",)) == both
    assert puzzle_next(user_id=alice.pk, target=1900.0, themes=("last_card",),
                       high=1800.0) == one
    assert puzzle_next(user_id=alice.pk, target=1500.0, low=1600.0, high=1700.0) is None


def _nearest_by_scan(user_id: int, target: float) -> float:
    played = set(PuzzleAttempt.objects.filter(user_id=user_id).values_list("puzzle_id",
                                                                           flat=True))
    return min(abs(puzzle.rating - target) for puzzle in Puzzle.objects.all()
               if puzzle.pk not in played)


@pytest.mark.parametrize(("played_below", "played_above"), [(45, 45), (45, 3), (3, 45), (80, 0)])
def test_the_nearest_lies_beyond_a_block_played_around_the_rating(alice, played_below,
                                                                  played_above):
    """More played on a side than the choice first reads (NEAR_ENTRIES): it walks on past
    them, on the side where the nearest may lie, and finds the same as a plain scan."""
    assert max(played_below, played_above) > NEAR_ENTRIES
    below = [_puzzle(index, 1500.0 - 2 * index - 1) for index in range(100)]
    above = [_puzzle(100 + index, 1500.0 + 3 * index) for index in range(100)]
    PuzzleAttempt.objects.bulk_create(
        [PuzzleAttempt(puzzle=puzzle, user=alice, solved=True)
         for puzzle in below[:played_below] + above[:played_above]])
    chosen = puzzle_next(user_id=alice.pk, target=1500.0)
    assert chosen is not None
    assert not PuzzleAttempt.objects.filter(user=alice, puzzle=chosen).exists()
    assert abs(chosen.rating - 1500.0) == _nearest_by_scan(alice.pk, 1500.0)
    ranged = puzzle_next(user_id=alice.pk, target=1500.0, low=1600.0)
    assert ranged is not None
    assert ranged.rating == 1500.0 + 3 * max(34, played_above)  # from 1600, never played
