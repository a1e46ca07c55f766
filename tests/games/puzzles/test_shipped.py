"""The shipped set: a fresh site offers puzzles at once. The file in the repository is the
generator's, every puzzle in it has a theme and holds under the exact solver (`puzzles verify`); it
is loaded once after `migrate` into a database with no puzzle, and a second load stores
nothing; `make run` on a fresh clone (migrate, then the server on its embedded default)
shows a puzzle on the puzzles page."""

from __future__ import annotations

import io
import json
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from games.ai.puzzles import Puzzle as FoundPuzzle
from games.ai.puzzles import Step
from games.puzzles.models import Puzzle, Source, theme_bits
from games.puzzles.shipped import load_shipped_after_migrate, puzzles_load_shipped
from games.rules.moves import parse_move_code
from tests.ai.test_puzzles import _recheck
from tests.games.puzzles.made import THREE_MOVES, stored
from tests.support.embedded import embedded_daphne, migrated_env

SHIPPED = django_settings.BASE_DIR / "games" / "puzzles" / "shipped.jsonl"


def _rows() -> list[dict]:
    return [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines()]


def test_the_shipped_file_is_small_and_every_puzzle_has_a_theme():
    rows = _rows()
    assert 100 <= len(rows) <= 300
    assert len({row["tpn"] for row in rows}) == len(rows)
    assert all(row["themes"] for row in rows)
    for row in rows:
        theme_bits(row["themes"])  # known themes only


def test_a_sample_of_the_shipped_puzzles_is_proved_again():
    for row in _rows()[::20]:
        steps = tuple(Step(parse_move_code(step["move"]),
                           tuple(sorted(parse_move_code(m) for m in step["accepted"])),
                           step["player"]) for step in row["solution"])
        _recheck(FoundPuzzle(row["tpn"], None, steps))


@pytest.mark.django_db
def test_every_shipped_puzzle_holds_under_the_exact_solver(settings):
    settings.PUZZLES_SHIPPED_SET = SHIPPED
    puzzles_load_shipped()
    out = io.StringIO()
    call_command("puzzles", "verify", stdout=out)
    assert not Puzzle.objects.filter(retired=True).exists(), out.getvalue()
    assert Puzzle.objects.count() == len(_rows())


@pytest.mark.django_db
def test_the_loader_stores_each_puzzle_once(settings):
    settings.PUZZLES_SHIPPED_SET = SHIPPED
    count = len(_rows())
    assert puzzles_load_shipped() == count
    assert puzzles_load_shipped() == 0
    out = io.StringIO()
    call_command("puzzles", "load", stdout=out)
    assert out.getvalue().strip() == "stored 0 new puzzles"
    assert Puzzle.objects.count() == count
    first = Puzzle.objects.get(tpn=_rows()[0]["tpn"])
    assert first.source == Source.SELF_PLAY
    assert first.theme_bits == theme_bits(first.themes)


@pytest.mark.django_db
def test_after_migrate_only_a_database_with_no_puzzle_gets_the_set(settings):
    settings.PUZZLES_SHIPPED_SET = None
    load_shipped_after_migrate()
    assert not Puzzle.objects.exists()
    settings.PUZZLES_SHIPPED_SET = SHIPPED
    stored(THREE_MOVES)
    load_shipped_after_migrate()
    assert Puzzle.objects.count() == 1  # a site with puzzles keeps its own
    Puzzle.objects.all().delete()
    load_shipped_after_migrate()
    assert Puzzle.objects.count() == len(_rows())


@pytest.mark.django_db
def test_ship_writes_what_load_stores(tmp_path):
    out = tmp_path / "set.jsonl"
    call_command("puzzles", "ship", "--count", "3", "--seed", "7", "--out", str(out),
                 stdout=io.StringIO())
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    call_command("puzzles", "load", str(out), stdout=io.StringIO())
    assert sorted(Puzzle.objects.values_list("tpn", flat=True)) == sorted(
        json.loads(line)["tpn"] for line in lines)


def test_a_fresh_site_offers_a_puzzle_at_once(tmp_path):
    env = migrated_env(tmp_path)
    with (embedded_daphne(env, tmp_path) as base,
          urllib.request.urlopen(f"{base}/puzzles/", timeout=10) as response):
        page = response.read().decode()
    assert 'data-testid="board"' in page
    assert 'id="puzzle-config"' in page
    assert 'data-testid="no-puzzle"' not in page
