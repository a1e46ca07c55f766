"""Iterative-deepening principal-variation search of duel positions, with a heuristic
evaluation at the horizon.

Public names: ``Searcher``, ``SearchResult``.

Features: a transposition table (depth, score, bound, best move), move ordering (the
table's move, then the duel's static order: going out, unbeatable seconds, cheap beaters),
equivalent cards collapsed, the quick "can go out and win now" cut-off, forced moves not
counted against the depth, and wins scored by distance (``WIN_SCORE - ply``) so that the
engine goes for the quickest win and never dawdles in a won position.

Repetition: a position repeated on the path, or seen twice by the game, scores a draw. Such
a score depends on the path, so a result that relied on one (tracked as the lowest path
index it referred to, see ``games.ai.solver`` for the exact version) is never stored.

The compiled core. With ``games._core`` built (``games.rules.native``), a session keeps
its table and path in a ``games._core.DuelSearch`` and each call of the node function
(``_search``: a root move's subtree, a proof) runs the whole subtree in C, budget checks
included; the root's loop stays here. ``_search_python`` is the same node in Python: the
tests hold the two to the same scores, best moves, table entries and node counts
(tests/ai/test_compiled_search.py). ``compiled=False`` picks the Python node.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from games.ai.duel import DuelTable, Key
from games.ai.duel_search import CHECK_EVERY, HELD, DuelSearch, SearchTimeout, duel_key
from games.ai.evaluation import WIN_SCORE, evaluate
from games.rules.native import core

if TYPE_CHECKING:
    from games._core import DuelSearch as CompiledSession

EXACT, LOWER, UPPER = 0, 1, 2
FREE: Final = 1 << 30
HISTORY: Final = -1
MAX_PLY: Final = 200


@dataclass(frozen=True, slots=True)
class SearchResult:
    move: int
    score: int
    depth: int
    nodes: int
    seconds: float


class Searcher(DuelSearch[tuple[int, int, int, int]]):
    """One search session (see ``games.ai.duel_search``); its table holds depth, score,
    bound and best move."""

    ROOT_WIN = WIN_SCORE - 1
    TOP = WIN_SCORE + 1
    MAX_PLY = MAX_PLY

    def __init__(
        self,
        table: DuelTable,
        repeated: Iterable[Key] = (),
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        max_nodes: int | None = None,
        compiled: bool = True,
    ) -> None:
        super().__init__(table, repeated, deadline, should_stop, max_nodes)
        self._core: CompiledSession | None = None
        """The compiled session, if the node runs in the core: then the table and the path
        live there, not in ``tt`` and ``_path``."""
        if compiled and core is not None:
            self._core = core.DuelSearch(table.trumps, table.strict, table.collapse,
                                         tuple(self.repeated))

    @property
    def compiled(self) -> bool:
        return self._core is not None

    def table_size(self) -> int:
        return len(self.tt) if self._core is None else self._core.table_size()

    def clear_table(self) -> None:
        if self._core is None:
            self.tt.clear()
        else:
            self._core.clear_table()

    def hold(self, key: Key) -> None:
        if self._core is None:
            super().hold(key)
        elif self._core.path_get(key) is None:
            self._core.path_push(key, HELD)

    @contextmanager
    def _at_root(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> Iterator[None]:
        session = self._core
        if session is None:
            with super()._at_root(me, opp, pile, mover):
                yield
            return
        session.path_push(duel_key(me, opp, pile, mover), 0)
        try:
            yield
        finally:
            session.path_pop()

    def _search(self, me: int, opp: int, pile: tuple[int, ...], mover: int, depth: int,
                alpha: int, beta: int, ply: int) -> tuple[int, int]:
        """Score for the mover and the lowest path index a repetition draw referred to."""
        if self._core is None:
            return self._search_python(me, opp, pile, mover, depth, alpha, beta, ply)
        # The deadline is on the clock the session reads (``time.monotonic``, which the
        # arena's --cpu-clock replaces): the core reads that clock, not one of its own.
        value, dep, self.nodes, stopped = self._core.search(
            me, opp, pile, mover, depth, alpha, beta, ply, self.nodes, self.max_nodes,
            self.deadline, self.should_stop, time.monotonic)
        if stopped:
            raise SearchTimeout
        return value, dep

    def _search_python(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                       depth: int, alpha: int, beta: int, ply: int) -> tuple[int, int]:
        """``_search`` in Python, node by node."""
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0:
            self._check_budget()
        key = (me, opp, pile, 0) if mover == 0 else (opp, me, pile, 1)
        earlier = self._path.get(key)
        if earlier is not None:
            return 0, earlier
        if key in self.repeated:
            return 0, HISTORY
        table = self.table
        if table.wins_now(me, opp, pile, mover) is not None:
            return WIN_SCORE - ply - 1, FREE
        entry = self.tt.get(key)
        hint = -1
        if entry is not None:
            e_depth, e_score, e_flag, hint = entry
            if e_depth >= depth:
                # Win scores are stored relative to the node.
                if e_score > WIN_SCORE // 2:
                    e_score -= ply
                elif e_score < -WIN_SCORE // 2:
                    e_score += ply
                if (e_flag == EXACT or (e_flag == LOWER and e_score >= beta)
                        or (e_flag == UPPER and e_score <= alpha)):
                    return e_score, FREE
        if depth <= 0 or ply >= MAX_PLY:
            return evaluate(table, me, opp, pile, mover), FREE
        moves = table.ordered_moves(me, opp, pile, mover, hint)
        # A forced move costs no depth: it sees past forced takes at the horizon.
        child_depth = depth if len(moves) == 1 else depth - 1
        alpha0 = alpha
        best, best_move, dep = -WIN_SCORE - 1, moves[0], FREE
        self._path[key] = ply
        try:
            for i, code in enumerate(moves):
                mine, after = table.play(me, pile, code)
                if not mine:
                    value = WIN_SCORE - ply - 1 if table.out_value(opp, after, mover) else 0
                    d = FREE
                elif i == 0:
                    value, d = self._search_python(opp, mine, after, 1 - mover, child_depth,
                                                   -beta, -alpha, ply + 1)
                    value = -value
                else:
                    value, d = self._search_python(opp, mine, after, 1 - mover, child_depth,
                                                   -alpha - 1, -alpha, ply + 1)
                    value = -value
                    if alpha < value < beta:
                        value, d = self._search_python(opp, mine, after, 1 - mover,
                                                       child_depth, -beta, -alpha, ply + 1)
                        value = -value
                dep = min(dep, d)
                if value > best:
                    best, best_move = value, code
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        finally:
            del self._path[key]
        if dep >= ply:
            stored = best
            if stored > WIN_SCORE // 2:
                stored += ply
            elif stored < -WIN_SCORE // 2:
                stored -= ply
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            self.tt[key] = (depth, stored, flag, best_move)
            dep = FREE
        return best, dep

    def search(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
               on_iteration: Callable[[SearchResult], bool] | None = None,
               max_depth: int = 64) -> SearchResult:
        """Deepen until the budget runs out, a win or loss is proven, ``max_depth`` is
        done, or ``on_iteration`` (called after each depth) says to stop; the best move of
        the deepest finished depth (or of the unfinished one, once its first move is
        searched) is returned."""
        start = time.monotonic()
        moves = self.table.ordered_moves(me, opp, pile, mover)
        result = SearchResult(moves[0], 0, 0, 0, 0.0)
        if len(moves) == 1:
            return result
        for depth in range(1, max_depth + 1):
            best, best_move = -WIN_SCORE - 1, moves[0]
            alpha = -WIN_SCORE - 1
            searched_first = False
            try:
                with self._at_root(me, opp, pile, mover):
                    for code in moves:
                        value = self._root_value(me, opp, pile, mover, code, alpha, depth)
                        searched_first = True
                        if value > best:
                            best, best_move = value, code
                            alpha = max(alpha, value)
            except SearchTimeout:
                if searched_first and best > -WIN_SCORE // 2:
                    result = SearchResult(best_move, best, depth, self.nodes,
                                          time.monotonic() - start)
                break
            moves.remove(best_move)
            moves.insert(0, best_move)
            result = SearchResult(best_move, best, depth, self.nodes, time.monotonic() - start)
            if abs(best) > WIN_SCORE // 2:
                break
            if on_iteration is not None and not on_iteration(result):
                break
        return result

    def move_score(self, me: int, opp: int, pile: tuple[int, ...], mover: int, code: int,
                   depth: int) -> int:
        """The score for the mover of playing ``code`` here, searched to ``depth`` with the
        full window: the move's own score, where the root's search only bounds the moves
        worse than its best (raises SearchTimeout past the budget)."""
        with self._at_root(me, opp, pile, mover):
            return self._root_value(me, opp, pile, mover, code, -self.TOP, depth)

    def proves(self, me: int, opp: int, pile: tuple[int, ...], mover: int, depth: int,
               win: bool) -> bool:
        """Whether a search to ``depth`` proves a win (or, ``win=False``, a loss) for the
        mover: a null window at the bound of won scores. With the table's equivalent cards
        not collapsed (``DuelTable(collapse=False)``) every move of both sides is searched,
        and a position repeated or seen twice scores a draw, so such a proof is exact
        (raises SearchTimeout past the budget)."""
        bound = WIN_SCORE // 2
        if win:
            return self._search(me, opp, pile, mover, depth, bound - 1, bound, 0)[0] >= bound
        return self._search(me, opp, pile, mover, depth, -bound, -bound + 1, 0)[0] <= -bound

    def _child(self, me: int, opp: int, pile: tuple[int, ...], mover: int, alpha: int,
               beta: int, depth: int) -> int:
        return self._search(me, opp, pile, mover, depth, alpha, beta, 1)[0]
