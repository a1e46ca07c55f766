"""Who plays puzzles: an account (rated, its attempts and streak in the database) or a
guest (unrated): what a guest played and their streak live in their session, read and
written here only.

A streak is puzzles in a row of rising difficulty until the first miss: each solve aims the
next one ``PUZZLES_STREAK_STEP`` points higher, a miss starts again from the bottom and
keeps the best.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings

SESSION_KEY = "puzzles"


@dataclass(frozen=True, slots=True)
class Streak:
    current: int = 0
    best: int = 0
    puzzle_id: int | None = None
    """The puzzle being played in the streak (none chosen yet: None)."""

    def after(self, *, solved: bool) -> Streak:
        """The streak once its puzzle is solved or missed (the next one not chosen yet)."""
        if solved:
            return Streak(self.current + 1, max(self.best, self.current + 1), None)
        return Streak(0, self.best, None)

    @property
    def target(self) -> float:
        """The rating its next puzzle aims at."""
        return float(settings.PUZZLES_STREAK_START + settings.PUZZLES_STREAK_STEP * self.current)

    def with_puzzle(self, puzzle_id: int | None) -> Streak:
        return replace(self, puzzle_id=puzzle_id)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


@dataclass(slots=True)
class GuestPuzzles:
    """A guest's puzzles: each one played with its result (the oldest first, at most
    ``PUZZLES_GUEST_MEMORY``), and their streak."""

    played: dict[int, bool] = field(default_factory=dict)
    streak: Streak = field(default_factory=Streak)

    @classmethod
    def load(cls, session: Any) -> GuestPuzzles:
        """From the session; anything malformed there counts as nothing played."""
        raw = session.get(SESSION_KEY)
        if not isinstance(raw, dict):
            return cls()
        played = {}
        items = raw.get("played")
        for item in items if isinstance(items, list) else []:
            if (isinstance(item, list) and len(item) == 2 and _count(item[0])
                    and isinstance(item[1], bool)):
                played[item[0]] = item[1]
        puzzle = _count(raw.get("puzzle")) or None
        return cls(played, Streak(_count(raw.get("current")), _count(raw.get("best")), puzzle))

    def save(self, session: Any) -> None:
        session[SESSION_KEY] = {
            "played": [[puzzle_id, solved] for puzzle_id, solved in self.played.items()],
            "current": self.streak.current, "best": self.streak.best,
            "puzzle": self.streak.puzzle_id,
        }

    def remember(self, puzzle_id: int, solved: bool) -> None:
        self.played[puzzle_id] = solved
        while len(self.played) > settings.PUZZLES_GUEST_MEMORY:
            del self.played[next(iter(self.played))]

    @property
    def exclude(self) -> tuple[int, ...]:
        return tuple(self.played)
