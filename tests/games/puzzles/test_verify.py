"""``manage.py puzzles verify``: every stored puzzle proved again by the exact solver, the
wrong ones retired (never offered again), the others kept."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.puzzles.models import Puzzle, Source
from games.puzzles.selectors import puzzle_next
from tests.games.puzzles.made import SIX_ANSWERS, THREE_MOVES, stored

pytestmark = pytest.mark.django_db

# QD wins here as well as 9S (two answers that are not interchangeable): the solver that
# stored this puzzle called QD a draw.
TWO_WINS = "DH QDJH9S/8C7DAD9HAS - 0 -"


def _verify() -> str:
    out = io.StringIO()
    call_command("puzzles", "verify", stdout=out)
    return out.getvalue()


def test_verify_retires_a_puzzle_that_does_not_hold_and_keeps_the_others() -> None:
    kept = [stored(THREE_MOVES), stored(SIX_ANSWERS)]
    wrong = Puzzle.objects.create(tpn=TWO_WINS, source=Source.SELF_PLAY, rating=1500.0,
                                  solution=[{"move": "9S", "accepted": ["9S"], "player": True}])
    # A line whose accepted moves leave out an interchangeable answer is wrong too.
    short = stored("SC 9D9H6SJSKS/6C7D8D - 1 -")
    short.solution[0]["accepted"] = short.solution[0]["accepted"][:1]
    short.save(update_fields=["solution"])

    out = _verify()

    assert "checked 4 puzzles" in out
    assert "2 hold, 2 retired" in out
    assert f"retired puzzle {wrong.pk} ({TWO_WINS}): " in out
    assert "the winning moves are 9S QD" in out
    assert set(Puzzle.objects.filter(retired=True).values_list("pk", flat=True)) == {
        wrong.pk, short.pk}
    assert not any(Puzzle.objects.get(pk=p.pk).retired for p in kept)
    # Nothing more the second time: the retired ones are not checked again.
    assert "checked 2 puzzles" in _verify()


def test_a_retired_puzzle_is_never_offered() -> None:
    wrong = Puzzle.objects.create(tpn=TWO_WINS, source=Source.SELF_PLAY, rating=1500.0,
                                  solution=[{"move": "9S", "accepted": ["9S"], "player": True}])
    assert puzzle_next(user_id=None, target=1500.0) == wrong
    _verify()
    assert puzzle_next(user_id=None, target=1500.0) is None
