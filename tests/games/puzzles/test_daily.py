"""The puzzle of the day (one a calendar day, the same for everyone, kept once chosen,
among established puzzles of middling rating, none twice while another is left) and its
block on the home page."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.puzzles.daily import puzzle_daily, puzzle_picture
from games.puzzles.models import DailyPuzzle, Puzzle, Source, theme_bits

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 14)
LINE = [{"move": "AH", "player": True, "accepted": ["AH"]}]
# Seat 1 to move with AC AH (trump hearts) against K♣ 6♦ 7♥ (trump diamonds), pile empty.
POSITIONS = ["DH KC6D7H/ACAH - 1 -", "DH KC6D8H/ACAH - 1 -", "DH KC6D9H/ACAH - 1 -",
             "DH KC6DTH/ACAH - 1 -", "DH KC6DJH/ACAH - 1 -", "DH KC7D7H/ACAH - 1 -",
             "DH KC7D8H/ACAH - 1 -", "DH KC7D9H/ACAH - 1 -"]


def _puzzle(tpn: str, *, rating: float = 1500.0, plays: int = 50,
            themes: tuple[str, ...] = ()) -> Puzzle:
    return Puzzle.objects.create(tpn=tpn, source=Source.SELF_PLAY, solution=LINE,
                                 themes=list(themes), theme_bits=theme_bits(themes),
                                 rating=rating, plays=plays)


def test_no_puzzle_no_daily_one() -> None:
    assert puzzle_daily(day=DAY) is None
    assert not DailyPuzzle.objects.exists()


def test_the_same_all_day_for_everyone_even_as_puzzles_change() -> None:
    for tpn in POSITIONS[:5]:
        _puzzle(tpn)
    chosen = puzzle_daily(day=DAY)
    assert chosen is not None
    for tpn in POSITIONS[5:]:
        _puzzle(tpn)  # added during the day: the choice stands
    Puzzle.objects.filter(pk=chosen.pk).update(rating=2400.0)
    assert puzzle_daily(day=DAY) == chosen
    assert DailyPuzzle.objects.get(day=DAY).puzzle == chosen


def test_every_day_another_none_twice_while_one_is_left() -> None:
    puzzles = {_puzzle(tpn) for tpn in POSITIONS[:5]}
    days = [DAY + datetime.timedelta(days=offset) for offset in range(5)]
    chosen = [puzzle_daily(day=day) for day in days]
    assert set(chosen) == puzzles  # five days, five different puzzles
    # With every one used, the days go on with the same puzzles again.
    assert puzzle_daily(day=DAY + datetime.timedelta(days=5)) in puzzles


def test_established_puzzles_of_middling_rating_first() -> None:
    low, high = settings.PUZZLES_DAILY_RATINGS
    _puzzle(POSITIONS[0], rating=low - 100)
    _puzzle(POSITIONS[1], rating=high + 100)
    _puzzle(POSITIONS[2], plays=settings.PUZZLES_DAILY_MIN_PLAYS - 1)
    fit = _puzzle(POSITIONS[3], rating=(low + high) / 2, plays=settings.PUZZLES_DAILY_MIN_PLAYS)
    assert puzzle_daily(day=DAY) == fit
    # A young site without one established still has its puzzle of the day.
    assert puzzle_daily(day=DAY + datetime.timedelta(days=1)) not in (None, fit)


def test_the_picture_shows_the_position_from_the_movers_side() -> None:
    picture = puzzle_picture(puzzle=_puzzle("DH KC6D7H/ACAH 9S 1 -", rating=1523.4,
                                            themes=("last_card", "trump_ace")))
    assert picture.hand == (("A", "\u2663", "C"), ("A", "\u2665", "H"))
    assert picture.other == (("K", "\u2663", "C"), ("6", "\u2666", "D"), ("7", "\u2665", "H"))
    assert (picture.pile_top, picture.pile_size) == (("9", "\u2660", "S"), 1)
    assert (picture.trump, picture.other_trump) == (("\u2665", "H"), ("\u2666", "D"))
    assert picture.rating == 1523
    assert not hasattr(picture, "themes")  # they would give the answer away


def test_the_home_page_shows_the_puzzle_of_the_day(client: Client) -> None:
    chosen = _puzzle("DH KC6D7H/ACAH - 1 -", rating=1611.0, themes=("take_to_win",))
    page = client.get("/").content.decode()
    assert 'data-testid="daily-puzzle"' in page
    assert f'href="{reverse("puzzles:daily")}" data-testid="daily-puzzle-link"' in page
    assert "Rating 1611" in page
    assert "Take to win" not in page  # the theme gives the answer away
    hand = page.split('data-testid="daily-hand"')[1].split('data-testid')[0]
    assert re.findall(r'daily-card suit-(\w)">(\w+)', hand) == [("C", "A"), ("H", "A")]
    assert "The pile is empty" in page
    assert puzzle_daily(day=timezone.localdate()) == chosen
    assert "style=" not in page.split('data-testid="daily-puzzle"')[1].split("</section>")[0]


def test_the_block_in_another_language(client: Client) -> None:
    _puzzle("DH KC6D7H/ACAH 9S 1 -", themes=("long_line",))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    page = client.get("/").content.decode()
    block = page.split('data-testid="daily-puzzle"')[1].split("</section>")[0]
    assert "Задача дня" in block
    assert "Puzzle of the day" not in block
    assert "Long line" not in block


def test_no_block_without_puzzles(client: Client) -> None:
    assert 'data-testid="daily-puzzle"' not in client.get("/").content.decode()
