"""How a game ended: ``Termination`` reasons and the ``Outcome`` value (loser and places).

Public names: ``Termination``, ``Outcome``.

``places`` lists the seats from first place to last; seats that share a place are grouped
(``((0,), (1, 2))``: seat 0 first, seats 1 and 2 share the rest). How each ending ranks:

- NORMAL: seats in the order they went out, then the loser (the last holder of cards).
- DRAW_RULE: nobody loses. The last holder could have beaten the top card with their last
  card and gone out at once, so they share the place of the player who went out last
  (with 2 players: both share first place).
- REPETITION, MOVE_LIMIT (draws): seats already out keep their places; the seats still
  holding cards share the remaining places. Nobody loses.
- RESIGNATION, TIMEOUT: the seat that resigned or flagged is the loser, last; seats already
  out keep their places; the other seats still holding cards share the places between.
- ABORTED: no result; every seat shares one place and nobody loses.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    NORMAL = "normal"
    DRAW_RULE = "draw rule"
    REPETITION = "repetition"
    MOVE_LIMIT = "move limit"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREEMENT = "agreement"
    ABORTED = "aborted"

    @property
    def is_draw(self) -> bool:
        return self in (Termination.DRAW_RULE, Termination.REPETITION, Termination.MOVE_LIMIT,
                        Termination.AGREEMENT)


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    loser: int | None
    places: tuple[tuple[int, ...], ...]

    @property
    def is_draw(self) -> bool:
        return self.loser is None and self.termination is not Termination.ABORTED

    @property
    def result(self) -> str:
        """``loser SEAT``, ``draw`` or ``aborted`` (the words of the ``result`` command)."""
        if self.loser is not None:
            return f"loser {self.loser}"
        return "aborted" if self.termination is Termination.ABORTED else "draw"

    @property
    def winner(self) -> int | None:
        """The seat alone in first place, if any (the winner of a decided duel)."""
        if self.loser is None or len(self.places[0]) != 1:
            return None
        return self.places[0][0]

    def place_of(self, seat: int) -> int:
        """1-based place; seats sharing a place all get the best of the shared places."""
        place = 1
        for group in self.places:
            if seat in group:
                return place
            place += len(group)
        raise ValueError(f"seat {seat} is not in this game")

    # The constructors below encode the ranking rules of the module docstring.

    @classmethod
    def normal(cls, out: list[int], loser: int) -> Outcome:
        return cls(Termination.NORMAL, loser, (*((s,) for s in out), (loser,)))

    @classmethod
    def draw_rule(cls, out: list[int], last: int) -> Outcome:
        shared = tuple(sorted((out[-1], last)))
        return cls(Termination.DRAW_RULE, None, (*((s,) for s in out[:-1]), shared))

    @classmethod
    def drawn(cls, termination: Termination, n_players: int, out: list[int]) -> Outcome:
        rest = tuple(s for s in range(n_players) if s not in out)
        return cls(termination, None, (*((s,) for s in out), rest))

    @classmethod
    def lost_by(cls, termination: Termination, n_players: int, out: list[int],
                loser: int) -> Outcome:
        rest = tuple(s for s in range(n_players) if s not in out and s != loser)
        groups: list[tuple[int, ...]] = [(s,) for s in out]
        if rest:
            groups.append(rest)
        return cls(termination, loser, (*groups, (loser,)))

    @classmethod
    def aborted(cls, n_players: int) -> Outcome:
        return cls(Termination.ABORTED, None, (tuple(range(n_players)),))
