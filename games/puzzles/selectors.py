"""Reads of the puzzles."""

from __future__ import annotations

from collections.abc import Iterator

from games.puzzles.models import Puzzle


def puzzle_export_lines() -> Iterator[str]:
    """One line a puzzle, oldest first: ``TPN | moves | themes | rating``."""
    for puzzle in Puzzle.objects.order_by("pk").iterator(chunk_size=2000):
        yield puzzle.export_line()
