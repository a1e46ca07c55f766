"""What the exact solver and the heuristic search of the duel share: one search session.

Public names: ``DuelSearch``, ``SearchTimeout``, ``duel_key``, ``repeated_keys``,
``CHECK_EVERY``, ``HELD``.

A ``DuelSearch`` holds the table of the duel (``games.ai.duel``), the positions the game
has seen twice (entering one again is its third occurrence, a draw), the budget, the
transposition table and the search path (the key of each position on it, with its ply).
Its subclasses give the node: ``games.ai.solver.Solver`` (exact win/draw/loss) and
``games.ai.search.Searcher`` (heuristic, iterative deepening).

The budget. A deadline (``time.monotonic()``), a node cap and a stop request, each
optional. The node function counts its nodes in ``nodes`` and calls ``_check_budget``
every ``CHECK_EVERY + 1`` nodes (a mask test inline, for speed); past the budget it raises
``SearchTimeout``, which the caller catches.

The root. ``_root_value`` gives the value of one root move for the mover while the root is
on the path (``_at_root``): ``ROOT_WIN`` times the table's ``out_value`` if the move goes
out, else the negated value of the child, searched in ``-TOP..-alpha`` by ``_child``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Final, Generic, TypeVar

from games.ai.duel import DuelTable, Key
from games.rules.state import PositionKey

CHECK_EVERY: Final = 255
"""The budget is checked when ``nodes & CHECK_EVERY == 0``."""
HELD: Final = -2
"""The path's ply of a position held above every root (``DuelSearch.hold``)."""

Entry = TypeVar("Entry")


class SearchTimeout(Exception):
    """Raised inside a search when its time, node budget or stop request runs out."""


def duel_key(me: int, opp: int, pile: tuple[int, ...], mover: int) -> Key:
    """The seat-absolute key of a duel position (like ``State.key`` without ``out``)."""
    return (me, opp, pile, 0) if mover == 0 else (opp, me, pile, 1)


def repeated_keys(history: Iterable[PositionKey]) -> frozenset[Key]:
    """The duel keys of the positions ``history`` holds twice or more: ``history`` is the
    ``State.key()`` of every position the game has been in (``Game.position_keys()``), and
    entering one of those again would be its third occurrence, a draw."""
    counts: dict[Key, int] = {}
    for hands, pile, _out, to_move in history:
        key = (hands[0], hands[1], pile, to_move)
        counts[key] = counts.get(key, 0) + 1
    return frozenset(key for key, count in counts.items() if count >= 2)


class DuelSearch(Generic[Entry]):
    """One search session: its transposition table (of ``Entry``) lives as long as it."""

    ROOT_WIN: int = 1
    """The root's value of a move that goes out and wins."""
    TOP: int = 1
    """Above every value: the upper end of the root's window."""
    MAX_PLY: int = 200
    """The deepest the node function recurses (the recursion limit is raised to fit)."""

    def __init__(
        self,
        table: DuelTable,
        repeated: Iterable[Key] = (),
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        max_nodes: int | None = None,
    ) -> None:
        self.table = table
        self.repeated = frozenset(repeated)
        self.deadline = deadline
        self.should_stop = should_stop
        self.max_nodes = max_nodes
        self.nodes = 0
        self.tt: dict[Key, Entry] = {}
        self._path: dict[Key, int] = {}
        if sys.getrecursionlimit() < 4 * self.MAX_PLY:
            sys.setrecursionlimit(4 * self.MAX_PLY)

    def table_size(self) -> int:
        """Entries in the transposition table (to bound its memory)."""
        return len(self.tt)

    def clear_table(self) -> None:
        """Empty the transposition table."""
        self.tt.clear()

    def _check_budget(self) -> None:
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchTimeout
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchTimeout
        if self.should_stop is not None and self.should_stop():
            raise SearchTimeout

    def hold(self, key: Key) -> None:
        """Keep a position on the search path above every root from now on (at ply
        ``HELD``): entering it again scores a draw, and a result that relied on that draw
        is marked so (the solver's dependencies, the search's path index), never stored as
        the position's own value. The replay's analysis holds the positions the game went
        through, so that what it proves holds whatever the game's past."""
        self._path.setdefault(key, HELD)

    @contextmanager
    def _at_root(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> Iterator[None]:
        """The root on the path (at ply 0) for the time of the block."""
        key = duel_key(me, opp, pile, mover)
        held = self._path.get(key)
        self._path[key] = 0
        try:
            yield
        finally:
            if held is None:
                self._path.pop(key, None)
            else:
                self._path[key] = held

    def _root_value(self, me: int, opp: int, pile: tuple[int, ...], mover: int, code: int,
                    alpha: int, depth: int = 0) -> int:
        """The value for the mover of playing ``code`` at the root (see the module
        docstring); ``depth`` is the root's, for a search that has one."""
        mine, after = self.table.play(me, pile, code)
        if not mine:
            return self.ROOT_WIN * self.table.out_value(opp, after, mover)
        return -self._child(opp, mine, after, 1 - mover, -self.TOP, -alpha, depth - 1)

    def _child(self, me: int, opp: int, pile: tuple[int, ...], mover: int, alpha: int,
               beta: int, depth: int) -> int:
        """The value for its mover of a child of the root (ply 1), searched in
        ``alpha..beta`` to ``depth``."""
        raise NotImplementedError
