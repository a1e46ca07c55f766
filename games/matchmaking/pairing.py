"""The pairing of one wave of a quick-pairing pool: pure functions, no Django.

Who may meet whom: each waiting player accepts opponents within a rating range that widens
the longer they wait. A pair is allowed when the gap of the two ratings is at most
`BASE_GAP` plus both players' bonuses, a bonus being `GAP_PER_WAVE` (12, as on lichess) per
wave missed, at most `MAX_BONUS`. (Seen as intervals of half-width `BASE_GAP / 2 + bonus`
around each rating, a pair is allowed when the two intervals meet.)

Which pairs: as many pairs as possible, and among those the smallest sum of rating gaps, found
exactly by a search over the players of a wave sorted by rating. A very large wave is cut, in
rating order, into groups of `GROUP_SIZE` searched one by one (as lichess does for its large
pools): exact within each group, and each group holds players of neighbouring ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

BASE_GAP = 200.0
GAP_PER_WAVE = 12.0
MAX_BONUS = 460.0
GROUP_SIZE = 14


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player waiting in a pool: `key` names them (the user id), `waves` counts the waves
    they have missed so far, `avoid` the keys they never meet (a block either way)."""

    key: int
    rating: float
    waves: int = 0
    avoid: frozenset[int] = frozenset()


def bonus(waves: int) -> float:
    return min(MAX_BONUS, GAP_PER_WAVE * max(0, waves))


def allowed_gap(a: Candidate, b: Candidate) -> float:
    return BASE_GAP + bonus(a.waves) + bonus(b.waves)


def may_pair(a: Candidate, b: Candidate) -> bool:
    return (a.key != b.key and b.key not in a.avoid and a.key not in b.avoid
            and abs(a.rating - b.rating) <= allowed_gap(a, b))


def pair(candidates: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    """The pairs of one wave (each candidate at most once, never with itself)."""
    unique = {c.key: c for c in candidates}  # one player is one candidate, whatever happens
    ordered = sorted(unique.values(), key=lambda c: (c.rating, c.key))
    pairs: list[tuple[Candidate, Candidate]] = []
    for start in range(0, len(ordered), GROUP_SIZE):
        pairs.extend(_best_pairs(ordered[start:start + GROUP_SIZE]))
    return pairs


def score(pairs: Sequence[tuple[Candidate, Candidate]]) -> tuple[int, float]:
    """What the pairing optimises: more pairs first, then a smaller total gap."""
    return len(pairs), -sum(abs(a.rating - b.rating) for a, b in pairs)


def _best_pairs(group: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    n = len(group)
    edges = [
        [j for j in range(i + 1, n) if may_pair(group[i], group[j])] for i in range(n)
    ]
    if all(len(edges[i]) == n - 1 - i for i in range(n)):
        return _neighbours(group)

    @cache
    def best(remaining: int) -> tuple[int, float, tuple[tuple[int, int], ...]]:
        # The lowest remaining player either waits for the next wave or meets one of the
        # others it may meet; the best of these choices, recursively. Exact for the group.
        if remaining == 0:
            return 0, 0.0, ()
        i = (remaining & -remaining).bit_length() - 1
        rest = remaining & ~(1 << i)
        count, gap, chosen = best(rest)
        result = (count, gap, chosen)
        for j in edges[i]:
            if rest >> j & 1:
                c, g, ch = best(rest & ~(1 << j))
                g += abs(group[i].rating - group[j].rating)
                if (c + 1, -g) > (result[0], -result[1]):
                    result = (c + 1, g, ((i, j), *ch))
        return result

    return [(group[i], group[j]) for i, j in best((1 << n) - 1)[2]]


def _neighbours(group: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    """The best pairs when anyone may meet anyone (the common case of a busy pool): pairs of
    neighbours in rating order (crossing or nested pairs never have a smaller total gap),
    with at most one player left out when they are odd, chosen by a linear pass."""
    # best[i]: (pairs, -gap, chosen) over the first i players.
    best: list[tuple[int, float, tuple[int, ...]]] = [(0, 0.0, ())]
    for i in range(1, len(group) + 1):
        options = [best[i - 1]]
        if i >= 2:
            count, gap, chosen = best[i - 2]
            options.append(
                (count + 1, gap - abs(group[i - 1].rating - group[i - 2].rating), (*chosen, i - 2))
            )
        best.append(max(options, key=lambda option: (option[0], option[1])))
    return [(group[i], group[i + 1]) for i in best[-1][2]]


def may_sit_together(group: Sequence[Candidate]) -> bool:
    """A table's players may meet when every two of them may (each one's range, widened by
    their wait, reaches every other)."""
    return all(may_pair(a, b) for i, a in enumerate(group) for b in group[i + 1:])


def tables(candidates: Sequence[Candidate], size: int) -> list[tuple[Candidate, ...]]:
    """The tables of `size` of one wave of a table pool (each candidate at most once).

    In rating order, the lowest player not yet seated either sits with the next `size - 1`
    players, when all may sit together, or waits for the next wave: a table of neighbours in
    rating order has the smallest spread its lowest player can have, and nobody is passed
    over by a table of players on both sides of them."""
    if size < 2:
        raise ValueError(f"a table has at least two players, not {size}")
    unique = {c.key: c for c in candidates}
    ordered = sorted(unique.values(), key=lambda c: (c.rating, c.key))
    found: list[tuple[Candidate, ...]] = []
    i = 0
    while i + size <= len(ordered):
        group = tuple(ordered[i:i + size])
        if may_sit_together(group):
            found.append(group)
            i += size
        else:
            i += 1
    return found
