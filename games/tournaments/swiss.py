"""The pairing and the tie-breaks of a Swiss tournament: pure functions, no Django.

A documented simpler method than the Dutch system:

- **The bye.** With an odd number of players, the lowest-ranked player (fewest points, then
  lowest rating) who has not had a bye sits the round out and scores a win; if all have had
  one, the lowest-ranked player.
- **The pairs.** The others are ranked by points, then rating; from the top, each meets the
  highest-ranked player below them whom they have not met, so players meet within their score
  group first, then the nearest group below. When that leaves someone who can meet nobody, the
  search steps back and tries the next opponent higher up (a backtracking search: if a
  pairing of the round without any repeat exists it is found, within `SEARCH_STEPS` steps,
  far more than a club's field needs). Only when none is found do players meet again,
  paired the same way with repeats allowed.

Scores are in half points: a win 2, a draw 1, a loss 0, a bye 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

BYE = 0
"""The opponent of a bye in a sheet."""
BYE_POINTS = 2
"""A bye scores a win."""


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    key: int
    score: int
    rating: float
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False


def ranked(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.key))


def bye_for(players: Sequence[SwissPlayer]) -> SwissPlayer | None:
    """Who sits out this round (None when they are even)."""
    if len(players) % 2 == 0:
        return None
    order = list(reversed(ranked(players)))
    return next((p for p in order if not p.had_bye), order[0])


def pair_round(players: Sequence[SwissPlayer]
               ) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], SwissPlayer | None]:
    """The pairs of a round, and the player who has the bye."""
    unique = list({p.key: p for p in players}.values())
    bye = bye_for(unique)
    rest = ranked([p for p in unique if bye is None or p.key != bye.key])
    pairs = _search(rest, repeats=False)
    if pairs is None:
        pairs = _search(rest, repeats=True) or []
    return pairs, bye


SEARCH_STEPS = 50_000
"""A bound on the backtracking of one round: beyond it (a large field where no pairing
without repeats exists) the round is paired with repeats allowed."""


def _search(players: list[SwissPlayer], *, repeats: bool
            ) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    steps = [0]

    def search(left: list[SwissPlayer]) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
        if not left:
            return []
        first, others = left[0], left[1:]
        for index, other in enumerate(others):
            steps[0] += 1
            if steps[0] > SEARCH_STEPS:
                return None
            if not repeats and other.key in first.opponents:
                continue
            rest = search(others[:index] + others[index + 1:])
            if rest is not None:
                return [(first, other), *rest]
        return None

    return search(players)


def tie_breaks(sheets: dict[int, list[tuple[int, int]]]) -> dict[int, tuple[float, float]]:
    """Buchholz and Sonneborn-Berger of each player, in points, from every player's sheet of
    (opponent, half points scored) per round (opponent `BYE` for a bye, which adds nothing to
    either). Buchholz: the sum of the opponents' scores. Sonneborn-Berger: the scores of the
    opponents beaten, and half the scores of those drawn."""
    totals = {key: sum(points for _opponent, points in sheet) / 2
              for key, sheet in sheets.items()}
    breaks = {}
    for key, sheet in sheets.items():
        met = [(opponent, points) for opponent, points in sheet if opponent != BYE]
        buchholz = sum(totals.get(opponent, 0.0) for opponent, _points in met)
        berger = sum(totals.get(opponent, 0.0) * points / 2 for opponent, points in met)
        breaks[key] = (buchholz, berger)
    return breaks
