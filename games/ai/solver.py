"""The exact solver of duel positions: win, draw or loss for the mover under the rules with
their history (docs/rules.md: repetition and the move limit included), with every move's
value.

Public names: ``Solver``, ``Solution``, ``solve``, ``RETROGRADE_STATES``, ``MAX_PLY``;
``SearchTimeout`` (from ``games.ai.duel_search``).

Two methods, one meaning. A value is the game's: the same whether the position is solved as
a root or reached inside a search, and never one that held only because of a repetition on
some path.

1. Retrograde analysis (``games.ai.retrograde``, compiled when the core is built) when the
   positions reachable from the root number at most ``RETROGRADE_STATES``: exact with
   cycles by construction, and with distances, which the move limit needs. Cards never
   leave a duel, but the order of the pile makes the graph grow about sevenfold a card:
   ``python -m games.ai.bench solve`` measured (random positions, cards in the hands and
   the pile) a median of 15 thousand positions at 8 cards, 94 thousand at 9, 590 thousand
   at 10, 3 to 7 million at 11 (up to 15.3 million). The plain Python analysis takes about 5 µs
   a position, so its limit keeps one solve near a second; the compiled one about 0.6-1 µs
   and, at its peak, about 110 bytes a position (66 kept), so its limit allows every
   position of 11 cards measured, in under 20 s and 1.8 GB. A session keeps the values of
   the graphs it solved: a later position inside one is answered at once (the values of a
   closed subgraph are its own).
2. Above it, a depth-first search over the three values whose table keeps only values that
   are the position's own: a repetition on the search path scores a draw (the first
   repetition standing for the third: from the root, a side that can force a win can do
   it without repeating, and one that cannot lose can repeat), and a result is stored only
   if no repetition under it referred to a position above it on the path (the
   graph-history interaction: such a draw is the path's, not the position's). Each stored
   value is thus the position's exact value, and a search that uses stored values where it
   can and the path's draws elsewhere still gets the root's exact value. It gives up
   (``SearchTimeout``) past its budget or past ``MAX_PLY`` plies of path; it claims
   nothing with fewer than ``DFS_PLIES`` plies left before the move limit, since it does
   not count distances. Every move's value (``all_moves``) is a move's own: a line back
   to the root reaches its second occurrence, worth the root's value, so once that is
   known the moves valued a draw are searched again with the return scored so.

The game's past. ``repeated`` holds the positions the game has seen twice: a move into one
is a draw (its third occurrence). ``hold`` marks a position the game went through once: if
the root is one of them, entering it again is a draw too; the others change nothing (the
winner's shortest line never enters a position twice). ``plies_left``: plies before the
move limit (``MOVE_LIMIT`` minus the game's ply).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from games.ai.duel import DRAW, WIN, DuelTable, Key
from games.ai.duel_search import CHECK_EVERY, DuelSearch, SearchTimeout, duel_key, repeated_keys
from games.ai.retrograde import Node, Retrograde, TooLarge, Values, retrograde
from games.rules.game import MOVE_LIMIT
from games.rules.moves import format_move_code
from games.rules.native import core
from games.rules.state import PositionKey, State, legal_codes

__all__ = ["MAX_PLY", "RETROGRADE_STATES", "SearchTimeout", "Solution", "Solver", "solve"]

PYTHON_RETROGRADE_STATES: Final = 200_000
"""Positions reachable from the root up to which the plain Python retrograde analysis solves
it (about a second of one core; every position of 8 cards or fewer, most of 9)."""
COMPILED_RETROGRADE_STATES: Final = 16_000_000
"""The same with the compiled core (about 1 µs and 110 bytes a position at its peak: about
18 s and 1.8 GB at the limit; every position of 11 cards that ``python -m games.ai.bench
solve`` draws, the largest 15.3 million). Only callers run by hand go this far: those on
the site's workers have budgets of their own (docs/ai.md, "Memory where it runs")."""
RETROGRADE_STATES: Final = PYTHON_RETROGRADE_STATES if core is None else COMPILED_RETROGRADE_STATES
"""The limit of this process (compiled core or not)."""
MAX_PLY: Final = 600
"""The longest search path of the depth-first search; deeper, it gives up."""
DFS_PLIES: Final = 1000
"""The depth-first search claims a value only with at least this many plies left."""
CACHE_LIMIT: Final = 2_000_000
"""A session forgets the graphs it solved past this many positions (memory)."""
DFS_FREE: Final = 1 << 30


@dataclass(frozen=True, slots=True)
class Solution:
    value: int
    """For the mover: 1 win, 0 draw, -1 loss."""
    moves: tuple[int, ...]
    """Codes of the moves that keep the value (all of them if ``all_moves``); after
    retrograde analysis the quickest win first, or the longest loss."""
    nodes: int
    """Positions enumerated (retrograde) or searched (depth-first)."""
    move_values: tuple[tuple[int, int], ...] = ()
    """``(code, value for the mover)`` of every move tried: all legal moves if
    ``all_moves``."""

    def moves_text(self) -> list[str]:
        return [format_move_code(c) for c in self.moves]


class SolvedGraphs:
    """The values of the graphs a session solved, graph by graph (a compiled graph stays in
    its C table: copying it into a dict would cost a tuple per position)."""

    __slots__ = ("graphs", "size")

    def __init__(self) -> None:
        self.graphs: list[Values] = []
        self.size = 0

    def add(self, graph: Values) -> None:
        self.graphs.append(graph)
        self.size += len(graph)

    def __contains__(self, key: object) -> bool:
        return any(key in graph for graph in self.graphs)

    def __getitem__(self, key: Key) -> Node:
        for graph in self.graphs:
            if key in graph:
                return graph[key]
        raise KeyError(key)

    def __len__(self) -> int:
        return self.size

    def __bool__(self) -> bool:
        return bool(self.graphs)


class Solver(DuelSearch[tuple[int, int, int]]):
    """One solving session (see the module docstring): the positions the game has seen
    twice and the budget are the session's; its table holds the depth-first search's
    values ``(lower, upper, best move)``, and ``solved`` the retrograde values."""

    MAX_PLY = MAX_PLY

    def __init__(self, table: DuelTable, repeated: Iterable[Key] = (),
                 deadline: float | None = None, should_stop: Callable[[], bool] | None = None,
                 max_nodes: int | None = None, *, plies_left: int = MOVE_LIMIT,
                 max_states: int = RETROGRADE_STATES) -> None:
        super().__init__(table, repeated, deadline, should_stop, max_nodes)
        self.plies_left = plies_left
        self.max_states = max_states
        self.solved = SolvedGraphs()
        self._held: set[Key] = set()
        self._draws: frozenset[Key] = self.repeated
        # What a return to the root scores in the depth-first search: a draw (standing for
        # its third occurrence), or, once the root's value is known, that value (`solve`).
        self._root_key: Key | None = None
        self._root_return = DRAW

    def forget(self) -> None:
        """Drop the values of the graphs solved so far (memory: about 66 bytes a position)."""
        self.solved = SolvedGraphs()

    def hold(self, key: Key) -> None:
        """The game went through ``key`` once before (see the module docstring)."""
        self._held.add(key)

    # --- the two methods --------------------------------------------------------------

    def _retrograde(self, root: Key) -> Values | None:
        """The retrograde values of the root's graph (cached), or None past the limit."""
        for values in self.solved.graphs:
            if root in values:
                return values  # a closed subgraph: every position under the root is in it
        if len(self.solved) > CACHE_LIMIT:
            self.solved = SolvedGraphs()  # one large graph: not kept while another is built
        start = self.nodes

        def check(count: int) -> None:
            self.nodes = start + count
            self._check_budget()

        limit = self.max_states
        if self.max_nodes is not None and self.max_nodes - start < limit:
            limit = max(0, self.max_nodes - start)
        try:
            graph: Retrograde = retrograde(self.table, root, self._draws,
                                           max_states=limit, check=check)
        except TooLarge:
            self.nodes = start + limit
            if limit < self.max_states:
                raise SearchTimeout from None  # the budget ran out first
            return None
        self.nodes = start + graph.size
        if len(self.solved) + graph.size > CACHE_LIMIT:
            self.solved = SolvedGraphs()
        self.solved.add(graph.nodes)
        return graph.nodes

    def _dfs(self, me: int, opp: int, pile: tuple[int, ...], mover: int, alpha: int,
             beta: int, ply: int) -> tuple[int, int]:
        """The value for the mover (fail-soft in ``alpha..beta``) and the lowest path ply
        a repetition under it referred to (``DFS_FREE``: none)."""
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0:
            self._check_budget()
        if ply > MAX_PLY:
            raise SearchTimeout
        key = (me, opp, pile, 0) if mover == 0 else (opp, me, pile, 1)
        path = self._path
        earlier = path.get(key)
        if earlier is not None:
            return (self._root_return if key == self._root_key else DRAW), earlier
        entry = self.tt.get(key)
        hint = -1
        if entry is not None:
            lower, upper, hint = entry
            if lower == upper or lower >= beta or upper <= alpha:
                return (lower if lower >= beta or lower == upper else upper), DFS_FREE
            alpha, beta = max(alpha, lower), min(beta, upper)
        table = self.table
        if table.wins_now(me, opp, pile, mover) is not None:
            self.tt[key] = (WIN, WIN, -1)
            return WIN, DFS_FREE
        alpha0, beta0 = alpha, beta
        best, best_move, dep = -2, -1, DFS_FREE
        path[key] = ply
        try:
            for code in table.ordered_moves(me, opp, pile, mover, hint):
                mine, after = table.play(me, pile, code)
                if not mine:
                    v, d = table.out_value(opp, after, mover), DFS_FREE
                else:
                    child = (mine, opp, after, 1) if mover == 0 else (opp, mine, after, 0)
                    if child in self._draws:
                        v, d = DRAW, DFS_FREE
                    else:
                        v, d = self._dfs(opp, mine, after, 1 - mover, -beta, -alpha, ply + 1)
                        v = -v
                dep = min(dep, d)
                if v > best:
                    best, best_move = v, code
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        finally:
            del path[key]
        if dep >= ply:
            # No repetition under it referred above it: the position's own value.
            lower, upper = (entry[0], entry[1]) if entry is not None else (-1, 1)
            if best <= alpha0:
                upper = min(upper, best)
            elif best >= beta0:
                lower = max(lower, best)
            else:
                lower = upper = best
            self.tt[key] = (lower, upper, best_move)
            dep = DFS_FREE
        return best, dep

    # --- solving ----------------------------------------------------------------------

    def solve(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
              all_moves: bool = False) -> Solution:
        """The exact value and the value-keeping moves (the first found, or all of them
        with ``all_moves``, which also gives every legal move's value)."""
        root = duel_key(me, opp, pile, mover)
        draws = self.repeated | {root} if root in self._held else self.repeated
        if draws != self._draws:
            self._draws = draws
            self.solved = SolvedGraphs()
            self.tt.clear()
        codes = legal_codes(me, pile, self.table.trumps[mover], self.table.strict)
        solved = self._retrograde(root)
        values: list[tuple[int, int]] = []
        searched: list[int] = []  # the moves valued by the depth-first search
        # Distance to the end after each move: the winner takes the shortest win (a win
        # played by any winning move need never end), the loser holds out longest.
        lengths: dict[int, int] = {}
        best = -2
        for code in codes if solved is not None else self._ordered(me, opp, pile, mover):
            mine, after = self.table.play(me, pile, code)
            child = (mine, opp, after, 1) if mover == 0 else (opp, mine, after, 0)
            if not mine:
                value, lengths[code] = self.table.out_value(opp, after, mover), 0
            elif child in self._draws:
                value = DRAW
            elif solved is not None:
                status, distance = solved[child]
                value = -status if status and distance <= self.plies_left - 1 else DRAW
                lengths[code] = distance
            else:
                value = self._dfs_root_move(me, opp, pile, mover, opp, mine, after)
                searched.append(code)
            values.append((code, value))
            best = max(best, value)
            if best == WIN and not all_moves and solved is None:
                break
        if all_moves and best != DRAW:
            values = self._values_with_root_known(me, opp, pile, mover, best, values, searched)
        keeping = tuple(code for code, value in values if value == best)
        if best != DRAW:
            keeping = tuple(sorted(keeping, key=lambda c: best * lengths.get(c, 0)))
        if not all_moves:
            keeping = keeping[:1]
        return Solution(best, keeping, self.nodes, tuple(values))

    def _values_with_root_known(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                                root_value: int, values: list[tuple[int, int]],
                                searched: list[int]) -> list[tuple[int, int]]:
        """Every move's own value once the root's is known. The depth-first search scored a
        return to the root as a draw (its third occurrence): exact for the root's value,
        but a move whose line returns to the root reaches its second occurrence, worth the
        root's value. Only a draw can be off (a win or a loss held without the return), so
        the searched moves valued a draw are searched again with that return scored."""
        again = {code for code, value in values if value == DRAW and code in searched}
        if not again:
            return values
        self._root_key, self._root_return = duel_key(me, opp, pile, mover), root_value
        try:
            return [(code, self._dfs_root_move(me, opp, pile, mover,
                                               *self._child_of(me, opp, pile, mover, code))
                     if code in again else value) for code, value in values]
        finally:
            self._root_key, self._root_return = None, DRAW

    def _child_of(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                  code: int) -> tuple[int, int, tuple[int, ...]]:
        """The root move's child as `_dfs_root_move` takes it: (child's me, opp, pile)."""
        mine, after = self.table.play(me, pile, code)
        return opp, mine, after

    def _ordered(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> list[int]:
        collapse, self.table.collapse = self.table.collapse, False
        try:
            return self.table.ordered_moves(me, opp, pile, mover)
        finally:
            self.table.collapse = collapse

    def _dfs_root_move(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                       child_me: int, child_opp: int, after: tuple[int, ...]) -> int:
        if self.plies_left < DFS_PLIES:
            raise SearchTimeout
        if self.table.collapse:
            raise ValueError("the depth-first search needs every card apart "
                             "(DuelTable(collapse=False))")
        with self._at_root(me, opp, pile, mover):
            return -self._dfs(child_me, child_opp, after, 1 - mover, -1, 1, 1)[0]


def solve(state: State, history: Iterable[PositionKey] = (), *, all_moves: bool = True,
          deadline: float | None = None, max_nodes: int | None = None,
          ply: int | None = None) -> Solution:
    """Solve a duel position exactly (raises SearchTimeout past ``deadline``/``max_nodes``,
    or when a position too large for retrograde analysis cannot be searched in time).

    ``history`` holds the ``State.key()`` of every position the game has been in, the
    current one included (``Game.position_keys()``): those seen twice already are draws to
    enter again (the current one among them if it is its second occurrence). ``ply``: the
    game's ply (default: the history's length less one), for the move limit."""
    if state.n_players != 2:
        raise ValueError("only the duel is a game of perfect information")
    if state.is_over():
        raise ValueError("the game is over")
    history = list(history)
    if ply is None:
        ply = max(0, len(history) - 1)
    t0, t1 = state.trumps
    table = DuelTable((int(t0), int(t1)), state.strict, collapse=False)
    solver = Solver(table, repeated_keys(history), deadline, max_nodes=max_nodes,
                    plies_left=MOVE_LIMIT - ply)
    h0, h1 = state.hand_masks
    mover = state.to_move
    me, opp = (h0, h1) if mover == 0 else (h1, h0)
    return solver.solve(me, opp, state.pile_codes, mover, all_moves)
