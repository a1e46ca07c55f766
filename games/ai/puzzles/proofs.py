"""Exact values of the moves of a duel position, as the analysis proves them.

Public names: ``Prover``, ``MoveValues``, ``PROOF_DEPTH``, ``SOLVE_CARDS``.

In a real duel all 36 cards stay in play (the pile comes back by takes), so the exact
solver (``games.ai.solver``) finishes only on small positions; elsewhere, as in the replay's
analysis (``games.ai.appraisal``), a value is exact when a search with every card apart
(``DuelTable(collapse=False)``) proves a forced win or a forced loss
(``games.ai.search.Searcher.proves``): every move of both sides is searched, and a position
repeated on the path scores a draw, so such a proof holds whatever the rest of the game.
A move is then:

- a win for its mover: it goes out and wins, or the other seat is proven lost after it;
- a loss: the other seat is proven to win after it;
- a draw: it goes out into the draw rule (the other seat's last card beats it), or the
  solver says so on a small position;
- unknown otherwise (no proof within the budget): such a position is never a puzzle.

Nothing here holds positions of the game's past on the path: a puzzle is played from its
TPN alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from games.ai.duel import WIN, DuelTable
from games.ai.duel_search import SearchTimeout
from games.ai.search import Searcher
from games.ai.solver import Solver
from games.rules.cards import mask_of

SOLVE_CARDS: Final = 10
"""Positions with at most this many cards in play (hands and pile) go to the solver: its
retrograde analysis of every one of them fits ``SOLVE_STATES`` (``python -m games.ai.bench
solve``: at most 780 thousand positions at 10 cards, millions at 11, where building the
graph until it overflows would cost a second for nothing, position after position)."""
SOLVE_STATES: Final = 2_000_000
"""The largest graph a proof's retrograde analysis builds, in positions (deterministic, as a
node budget is): about 1.2 s of CPU and 190 MB of the process at the peak, compiled, as the
AI's move allows itself (``games.ai.duel_engine.ENGINE_STATES``)."""
PROOF_DEPTH: Final = 12
"""The deepest proof tried (forced moves cost no depth)."""
TABLE_LIMIT: Final = 400_000
"""A session's transposition table is emptied past this many entries (memory)."""

MoveValues = dict[int, int]
"""Move code to its exact value for the mover: 1 win, 0 draw, -1 loss."""


@dataclass(slots=True)
class Prover:
    """Proving sessions for the positions of one pair of trumps (standard or strict):
    their tables serve every position, since no value here depends on a path above it."""

    trumps: tuple[int, int]
    strict: bool = False
    max_nodes: int = 60_000
    """The budget of one move's proof, in search nodes (never time: the same position
    gives the same puzzle on any machine)."""
    solve_states: int = SOLVE_STATES
    """The budget of the solver, in positions of its retrograde analysis (likewise)."""
    depth: int = PROOF_DEPTH
    table: DuelTable = field(init=False)
    searcher: Searcher = field(init=False)
    solver: Solver = field(init=False)

    def __post_init__(self) -> None:
        self.table = DuelTable(self.trumps, self.strict, collapse=False)
        self.searcher = Searcher(self.table)
        self.solver = Solver(self.table)

    def moves(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> list[int]:
        """Every legal move (no card collapsed)."""
        return self.table.ordered_moves(me, opp, pile, mover)

    def solve_all(self, me: int, opp: int, pile: tuple[int, ...],
                  mover: int) -> MoveValues | None:
        """Every move's value by the exact solver, on a small position; None if too big."""
        if (me | opp | mask_of(pile)).bit_count() > SOLVE_CARDS:
            return None
        solver = self.solver
        if len(solver.tt) > TABLE_LIMIT:
            solver.tt.clear()
        solver.nodes = 0
        solver.max_nodes = solver.max_states = self.solve_states
        try:
            solution = solver.solve(me, opp, pile, mover, all_moves=True)
        except SearchTimeout:
            return None
        return dict(solution.move_values)

    def forget(self) -> None:
        """Drop the graphs the solver keeps (a game's positions all lie in the graph of its
        first one: kept for the game, dropped after it)."""
        self.solver.forget()

    def move_value(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                   code: int) -> int | None:
        """The proven value of one move for its mover, or None."""
        mine, after = self.table.play(me, pile, code)
        if not mine:
            return self.table.out_value(opp, after, mover)
        value = self.proven(opp, mine, after, 1 - mover)
        return None if value is None else -value

    def proven(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> int | None:
        """WIN or -WIN for the mover if a search proves it, else None."""
        searcher = self.searcher
        if searcher.table_size() > TABLE_LIMIT:
            searcher.clear_table()
        searcher.max_nodes = searcher.nodes + self.max_nodes
        try:
            for depth in range(1, self.depth + 1):
                if searcher.proves(me, opp, pile, mover, depth, True):
                    return WIN
                if searcher.proves(me, opp, pile, mover, depth, False):
                    return -WIN
        except SearchTimeout:
            return None
        return None

    def longest_defence(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> int:
        """The defender's best reply in a lost position: the move the search says holds out
        longest (it scores wins by their distance, every move of both sides apart)."""
        searcher = self.searcher
        searcher.max_nodes = searcher.nodes + self.max_nodes
        return searcher.search(me, opp, pile, mover, max_depth=self.depth).move


