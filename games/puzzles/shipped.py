"""The shipped set: puzzles made by the generator and kept in the repository
(``PUZZLES_SHIPPED_SET``, one JSON object a line), so that a fresh site offers puzzles at
once, before any game has finished.

``python manage.py puzzles ship --count N --seed S --out FILE`` writes it (AI self-play, as
``puzzles generate``, nothing stored); ``puzzles_load_shipped`` stores it; and after every
``migrate`` (``post_migrate``, so ``make run`` on a fresh clone) a database with no puzzle
at all gets it. Loading is idempotent: a puzzle is its position (``Puzzle.tpn`` is unique),
so a second load, or two at once, store nothing twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from games.ai.puzzles import self_play_puzzles
from games.puzzles.models import Puzzle, Source, theme_bits
from games.puzzles.services import puzzle_solution


def shipped_lines(*, count: int, seed: int = 0) -> Iterator[str]:
    """``count`` puzzles of AI self-play (seeds from ``seed``), one JSON line each."""
    for found, _start, _seed in self_play_puzzles(count, seed=seed,
                                                  max_nodes=settings.PUZZLES_PROOF_NODES):
        yield json.dumps({"tpn": found.tpn, "solution": puzzle_solution(found=found),
                          "themes": list(found.themes), "rating": found.rating},
                         ensure_ascii=False, separators=(",", ":"))


def puzzles_load_shipped(*, path: Path | str | None = None, using: str = DEFAULT_DB_ALIAS) -> int:
    """Store the shipped set (``path``, else ``PUZZLES_SHIPPED_SET``); the number of puzzles
    new to the database (those stored already are left as they are)."""
    source = Path(path if path is not None else settings.PUZZLES_SHIPPED_SET)
    rows = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        rows.append(Puzzle(tpn=data["tpn"], source=Source.SELF_PLAY, solution=data["solution"],
                           themes=data["themes"], theme_bits=theme_bits(data["themes"]),
                           rating=float(data["rating"])))
    puzzles = Puzzle.objects.using(using)
    before = puzzles.count()
    puzzles.bulk_create(rows, batch_size=500, ignore_conflicts=True)
    return puzzles.count() - before


def load_shipped_after_migrate(*, using: str = DEFAULT_DB_ALIAS, apps: Any = None,
                               **_signal: Any) -> None:
    """The ``post_migrate`` step: a database with no puzzle gets the shipped set, if the
    settings name one (the test suite's do not). A migrate that stopped short of the
    puzzles' table (``migrate APP``, ``apps``: the state it left) loads nothing."""
    if not settings.PUZZLES_SHIPPED_SET:
        return
    if apps is not None:
        try:
            apps.get_model("games", "Puzzle")
        except LookupError:
            return
    if Puzzle._meta.db_table not in connections[using].introspection.table_names():
        return
    if not Puzzle.objects.using(using).exists():
        puzzles_load_shipped(using=using)
