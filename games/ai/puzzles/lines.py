"""A puzzle as found: its position and its line of steps.

Public names: ``Step``, ``Puzzle``.

The finder (``games.ai.puzzles.finder``) makes them and the themes
(``games.ai.puzzles.themes``) read them; both import this module, neither the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.moves import format_move_code


@dataclass(frozen=True, slots=True)
class Step:
    move: int
    """The move's code: the player's answer as shown (the lowest accepted code), or the
    defender's reply."""
    accepted: tuple[int, ...]
    """Every move accepted here, sorted: the proven winning moves of a player's step, the
    reply itself for the defender's."""
    player: bool

    def text(self) -> str:
        return format_move_code(self.move)


@dataclass(frozen=True, slots=True)
class Puzzle:
    tpn: str
    """The position, the player to move."""
    ply: int | None
    """The position's index in the game it came from (None: not from a game)."""
    steps: tuple[Step, ...]
    """The player's moves and the defender's replies in turn, the player's first and
    last."""
    themes: tuple[str, ...] = ()
    rating: float = 1500.0
    wrong: int = 0
    """Classes of the first position's moves that do not win."""

    def moves_text(self) -> list[str]:
        return [step.text() for step in self.steps]
