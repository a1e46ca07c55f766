"""Retrograde analysis of a duel position: the exact value and distance of every position
reachable from it, under the rules with their history (docs/rules.md).

Public names: ``Retrograde``, ``retrograde``, ``retrograde_python``, ``Values``, ``Node``,
``WON``, ``LOST``, ``OPEN``, ``TooLarge``.

Two implementations, one meaning: the compiled core's ``retrograde_graph``
(``games.rules.native``), about fifteen times faster and with its values in one C table,
when it is built; otherwise the plain Python below (``YT_PURE_PYTHON=1`` forces it). The
tests hold the two to the same values (tests/ai/test_retrograde.py).

The graph. Cards never leave a duel, so the positions reachable from a root are finitely
many: ``(hand 0, hand 1, pile, mover)``, enumerated breadth-first with every legal move (no
card collapsed). A move that empties the mover's hand ends the game: a win, or a draw by
the draw rule (``DuelTable.out_value``). A move into a position the game has already seen
twice (``draws``) is a draw too: that entry would be its third occurrence.

The values. Backward induction from the ends, with a counter of unresolved children per
position: a position is won if some move wins at once or leads to a position lost for the
other seat, lost if every move leads to a position won for the other seat; positions never
resolved stay ``OPEN``, and they are draws. Distances are in plies to the end: the least
over won moves (the winner hurries), one more than the greatest over the children of a lost
position (the loser holds out); the queue resolves positions in order of distance, so the
first distance found is the right one.

Why this is the game's value. The winner who always moves to a position of smaller
distance never meets a position twice (distances fall at every ply), so no repetition,
and no position seen twice before, interrupts the win, and it ends within the distance.
The side that is not lost always has a move to a position that is not lost for it (or a
draw at once): it never loses, and a game that never ends repeats some position a third
time, or reaches the move limit: a draw. A position of the game's past seen once only
changes nothing (a winner's line never enters it twice). So with the move limit ``plies``
plies away, a position is won if its distance is at most ``plies``, lost likewise, and a
draw otherwise (``Retrograde.value``).
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from games.ai.duel import DRAW, DuelTable, Key
from games.rules.native import core
from games.rules.state import legal_codes

WON: Final = 1
LOST: Final = -1
OPEN: Final = 0
"""A position that retrograde analysis never resolved: a draw."""

Node = tuple[int, int]
"""``(status, distance)``: WON, LOST or OPEN for the mover, and the distance in plies to
the end of the game (0 for OPEN)."""


class Values(Protocol):
    """The solved positions of a graph: a dict, or the compiled core's ``SolvedGraph``."""

    def __getitem__(self, key: Key, /) -> Node: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...


class TooLarge(Exception):
    """The reachable graph has more positions than the limit given."""


@dataclass(slots=True)
class Retrograde:
    """The solved reachable graph of one root: ``nodes[key]`` for every position in it."""

    nodes: Values
    size: int

    def value(self, key: Key, plies: int) -> int:
        """The value for the mover of ``key`` (in the graph) with the move limit ``plies``
        plies away: 1 win, 0 draw, -1 loss."""
        status, distance = self.nodes[key]
        return status if status != OPEN and distance <= plies else DRAW


def retrograde(table: DuelTable, root: Key, draws: frozenset[Key] = frozenset(), *,
               max_states: int | None = None,
               check: Callable[[int], None] | None = None) -> Retrograde:
    """Solve every position reachable from ``root`` (seat-absolute ``(hand 0, hand 1,
    pile, mover)``); ``draws``: the positions a move into which is a draw (the game has
    seen them twice). Raises ``TooLarge`` past ``max_states`` positions; ``check(count)``
    is called every 4096 positions (to stop on a budget, by raising)."""
    if core is not None:
        graph = core.retrograde_graph(table.trumps, table.strict, root, tuple(draws),
                                      max_states, check)
        if graph is None:
            raise TooLarge
        return Retrograde(graph, len(graph))
    return retrograde_python(table, root, draws, max_states=max_states, check=check)


def retrograde_python(table: DuelTable, root: Key, draws: frozenset[Key] = frozenset(), *,
                      max_states: int | None = None,
                      check: Callable[[int], None] | None = None) -> Retrograde:
    """``retrograde`` in plain Python (the fallback, and the tests' second opinion)."""
    # Millions of small tuples and no cycles among them: a cyclic collection pass over
    # them would cost more than the analysis.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _solve(table, root, draws, max_states, check)
    finally:
        if collecting:
            gc.enable()


def _solve(table: DuelTable, root: Key, draws: frozenset[Key], max_states: int | None,
           check: Callable[[int], None] | None) -> Retrograde:
    trumps, strict, rows = table.trumps, table.strict, table.rows
    index: dict[Key, int] = {root: 0}
    keys: list[Key] = [root]
    children: list[list[int]] = []
    # Per position: moves not yet resolved (-1 once the position is resolved), status
    # and distance.
    pending: list[int] = []
    status: list[int] = []
    distance: list[int] = []
    won_now: list[int] = []
    i = 0
    while i < len(keys):
        h0, h1, pile, mover = keys[i]
        hand, other = (h0, h1) if mover == 0 else (h1, h0)
        kids: list[int] = []
        escape = False
        wins = False
        for code in legal_codes(hand, pile, trumps[mover], strict):
            mine, after = table.play(hand, pile, code)
            if not mine:
                if other & (other - 1) == 0 and other & rows[1 - mover][after[-1]]:
                    escape = True  # out into the draw rule
                else:
                    wins = True
                continue
            child = (mine, other, after, 1) if mover == 0 else (other, mine, after, 0)
            if child in draws:
                escape = True
                continue
            j = index.get(child)
            if j is None:
                j = len(keys)
                index[child] = j
                keys.append(child)
                if max_states is not None and j >= max_states:
                    raise TooLarge
                if check is not None and j & 4095 == 0:
                    check(j)
            kids.append(j)
        kids = list(set(kids))
        children.append(kids)
        status.append(OPEN)
        distance.append(0)
        # A draw at hand keeps the position from ever being lost: it counts as a move
        # that never resolves.
        pending.append(len(kids) + escape)
        if wins:
            won_now.append(i)
        i += 1
    n = len(keys)
    parents: list[list[int]] = [[] for _ in range(n)]
    for p, kids in enumerate(children):
        for c in kids:
            parents[c].append(p)
    queue: deque[int] = deque()
    for p in won_now:
        status[p], distance[p], pending[p] = WON, 1, -1
        queue.append(p)
    while queue:
        c = queue.popleft()
        d = distance[c] + 1
        if status[c] == LOST:
            for p in parents[c]:
                if pending[p] >= 0:
                    status[p], distance[p], pending[p] = WON, d, -1
                    queue.append(p)
        else:
            for p in parents[c]:
                if pending[p] > 0:
                    pending[p] -= 1
                    if pending[p] == 0:
                        status[p], distance[p], pending[p] = LOST, d, -1
                        queue.append(p)
    return Retrograde({keys[p]: (status[p], distance[p]) for p in range(n)}, n)
