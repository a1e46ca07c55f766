"""The score of one arena game (lichess's arena rules): pure, no Django.

A win scores 2, a draw 1, a loss 0. A player who has won their last two games is on fire:
their games score double (a win 4, a draw 2) until they fail to win. A berserk player who
wins gets one more point (never doubled). An aborted game scores nothing and changes no
streak: it is not a game of the arena.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

BASE_POINTS = {"win": 2, "draw": 1, "loss": 0}
FIRE_AFTER_WINS = 2


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class Scored:
    """What one game gave a player: its points, whether they were doubled (on fire), whether
    the berserk bonus counted, and the player's streak after it."""

    points: int
    doubled: bool
    berserk_bonus: bool
    streak: int

    def sheet_entry(self) -> list[int]:
        return [self.points, int(self.doubled), int(self.berserk_bonus)]


def on_fire(streak: int) -> bool:
    return streak >= FIRE_AFTER_WINS


def game_score(*, outcome: Outcome, streak: int, berserk: bool) -> Scored:
    """The points of a game played with `streak` wins in a row before it."""
    doubled = on_fire(streak)
    points = BASE_POINTS[outcome.value] * (2 if doubled else 1)
    bonus = berserk and outcome == Outcome.WIN
    return Scored(points=points + (1 if bonus else 0), doubled=doubled, berserk_bonus=bonus,
                  streak=streak + 1 if outcome == Outcome.WIN else 0)


def sheet_total(outcomes: list[tuple[Outcome, bool]]) -> tuple[int, int]:
    """The total score and the final streak of a player's games in order ((outcome,
    berserk) each)."""
    total, streak = 0, 0
    for outcome, berserk in outcomes:
        scored = game_score(outcome=outcome, streak=streak, berserk=berserk)
        total, streak = total + scored.points, scored.streak
    return total, streak
