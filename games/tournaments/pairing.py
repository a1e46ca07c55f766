"""The pairing of one arena wave: pure functions, no Django.

Every free player is a candidate; the candidates are ranked as the standings rank them
(score, then rating) and each, from the top, meets the nearest candidate below them who was
not their last opponent (nor had them as theirs). Everyone who can be paired is paired in one
wave: all of them when they are even, all but one when odd, the one who waits being one who
could only meet a last opponent, if any; a player meets their last opponent again only when
no other pairing is left. Neighbours in rank have near scores and ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Candidate:
    """A free player: `key` names them (the user id); `last_opponent` is the key of the
    opponent of their last game (None: none yet)."""

    key: int
    score: int
    rating: float
    last_opponent: int | None = None


def is_rematch(a: Candidate, b: Candidate) -> bool:
    return a.last_opponent == b.key or b.last_opponent == a.key


def ranked(candidates: Sequence[Candidate]) -> list[Candidate]:
    unique = {c.key: c for c in candidates}  # one player is one candidate
    return sorted(unique.values(), key=lambda c: (-c.score, -c.rating, c.key))


def pair(candidates: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    """The pairs of one wave (each candidate at most once, never with itself)."""
    waiting = ranked(candidates)
    pairs: list[tuple[Candidate, Candidate]] = []
    # With an odd number one player waits for the next wave: better one who would otherwise
    # meet someone they (or who) just played than the lowest ranked.
    spare = len(waiting) % 2 == 1
    while len(waiting) >= 2:
        first = waiting.pop(0)
        index = next((i for i, other in enumerate(waiting) if not is_rematch(first, other)),
                     None)
        if index is not None:
            pairs.append((first, waiting.pop(index)))
            continue
        # Everyone left below them just played them (their last opponent, or players who
        # have not played since meeting them): swap with an earlier pair if that avoids the
        # rematch, else let them wait if one may, else the rematch stands (they are the only
        # two free).
        untangled = _untangle(pairs, first, waiting[0])
        if untangled is not None:
            waiting.pop(0)
            pairs.append(untangled)
        elif spare:
            spare = False
        else:
            pairs.append((first, waiting.pop(0)))
    return pairs


def _untangle(pairs: list[tuple[Candidate, Candidate]], first: Candidate,
              other: Candidate) -> tuple[Candidate, Candidate] | None:
    """`first` and `other` would meet again: if an earlier pair (p, q) lets p meet one and q
    the other without a rematch, re-pair the four so and return the new pair; otherwise
    None."""
    for index in range(len(pairs) - 1, -1, -1):
        p, q = pairs[index]
        for x, y in ((first, other), (other, first)):
            if not is_rematch(p, x) and not is_rematch(q, y):
                pairs[index] = (p, x)
                return (q, y)
    return None
