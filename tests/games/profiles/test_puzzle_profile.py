"""The profile's puzzles: the puzzle rating, its chart (the ratings' chart) and the
history of the puzzles played, a page at a time."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.puzzles.models import Puzzle, PuzzleAttempt, Source
from games.puzzles.selectors import (
    HISTORY_PAGE_SIZE,
    puzzle_history_page,
    puzzle_rating_history,
)
from games.puzzles.services import puzzle_attempt_record

pytestmark = pytest.mark.django_db

LINE = [{"move": "AH", "player": True, "accepted": ["AH"]}]


def _puzzles(count: int) -> list[Puzzle]:
    return [Puzzle.objects.create(tpn=f"DH KC6D7H/ACAH - 1 - {index}", source=Source.SELF_PLAY,
                                  solution=LINE, rating=1500.0)
            for index in range(count)]


def _play(user: User, puzzles: list[Puzzle], solved: Callable[[int], bool]) -> None:
    start = timezone.now() - timedelta(days=len(puzzles))
    for index, puzzle in enumerate(puzzles):
        puzzle_attempt_record(puzzle_id=puzzle.pk, user=user, solved=solved(index),
                              now=start + timedelta(days=index))
    # The history is ordered by when each was played.
    for index, puzzle in enumerate(puzzles):
        PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).update(
            played_at=start + timedelta(days=index))


def test_no_puzzles_no_section(client: Client, make_user: Callable[..., User]) -> None:
    make_user("anna")
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="puzzles"' not in page
    assert 'data-testid="puzzle-rating"' not in page


def test_rating_chart_and_history(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    puzzles = _puzzles(3)
    _play(anna, puzzles, solved=lambda index: index != 1)
    attempts = {a.puzzle_id: a for a in PuzzleAttempt.objects.filter(user=anna)}
    page = client.get("/@/anna").content.decode()
    rating = page.split('data-testid="puzzle-rating"')[1].split("</div>")[0]
    assert str(round(attempts[puzzles[2].pk].rating_after)) in rating
    assert "3 puzzles played" in rating
    chart = page.split('data-testid="puzzle-rating-chart"')[1].split("</svg>")[0]
    assert len(re.findall(r'<circle class="dot"', chart)) == 3
    assert "Puzzle rating after each of 3 puzzles" in page
    rows = page.split('data-testid="puzzle-history"')[1].split("</table>")[0].split(
        'data-testid="puzzle-played"')[1:]
    assert len(rows) == 3
    newest, failed, oldest = rows
    show_url = reverse("puzzles:show", args=[puzzles[2].pk])
    assert f'href="{show_url}" data-testid="puzzle-link"' in newest
    assert f"Puzzle {puzzles[2].pk}" in newest
    assert "Solved" in newest
    assert "Failed" in failed
    assert "Solved" in oldest
    first = attempts[puzzles[0].pk]
    delta = round(first.rating_after) - round(first.rating_before)
    assert delta > 0
    assert (f'{round(first.rating_after)} <span class="delta" data-testid="puzzle-delta">'
            f"(+{delta})") in oldest
    assert "(-" in failed
    assert 'data-testid="puzzles-pagination"' not in page


def test_the_history_pages(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    puzzles = _puzzles(HISTORY_PAGE_SIZE + 3)
    _play(anna, puzzles, solved=lambda index: True)
    page, rows = puzzle_history_page(user_id=anna.pk, page_number=2)
    assert [row.puzzle_id for row in rows] == [p.pk for p in reversed(puzzles[:3])]
    assert page.number == 2
    second = client.get("/@/anna?puzzles_page=2").content.decode()
    assert len(second.split('data-testid="puzzle-played"')) == 4
    assert 'href="?puzzles_page=1#puzzles"' in second
    for bad in ("x", "0", "-3", "999"):  # a page that is not one: a page, never an error
        response = client.get(f"/@/anna?puzzles_page={bad}")
        assert response.status_code == 200
        assert 'data-testid="puzzle-played"' in response.content.decode()
    # The chart follows the rating after each one, oldest first.
    history = puzzle_rating_history(user_id=anna.pk)
    assert len(history) == HISTORY_PAGE_SIZE + 3
    assert [point.rating for point in history] == sorted(point.rating for point in history)


def test_guest_plays_are_nobodys_history(make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    puzzle = _puzzles(1)[0]
    puzzle_attempt_record(puzzle_id=puzzle.pk, user=None, solved=True)
    page, rows = puzzle_history_page(user_id=anna.pk)
    assert (page.paginator.count, rows) == (0, [])
