"""The value of one duel position for the analysis of a game: exact where it can be proven,
the heuristic search's estimate elsewhere.

Public names: ``Appraiser``, ``Appraisal``, ``expected_score``, ``ESTIMATE_SCALE``,
``ESTIMATE_LIMIT``, ``SOLVE_HANDS``.

Values are for the mover, on the expected-score scale of ``games.ai.analysis``: 1 a win,
0 a draw, -1 a loss. A position is appraised in this order, within a node budget (never a
time budget: the same game gets the same analysis on any machine, at any load):

1. If the two hands hold at most ``SOLVE_HANDS`` cards, the exact solver (half the budget),
   which gives the value of every move.
2. Else, or if the solver ran out, the heuristic search (``games.ai.search``), whose score
   becomes an expected score by ``expected_score``; then the search's score of the move
   actually played, to the same depth, so that a mark compares two moves searched alike.
3. A search that finds a forced win or loss is checked again with no equivalent cards
   collapsed (``Searcher.proves``): a proof that holds is exact, one that does not stays an
   estimate (at most ``ESTIMATE_LIMIT``).

The game's past. Every position the game went through before is held (``DuelSearch.hold``):
the search scores a draw for entering one again, and a proof never relies on a draw; the
solver takes the game's past as the rules do (positions seen twice are draws to enter, the
current one too if the game was there before, and the move limit counts the plies played:
``games.ai.solver``). So an exact value is the position's in this game, and its negation
is a lower bound of the value of the move into it for the position before (which
``games.ai.analysis`` uses to prove positions from their children).

A position where the mover has one class of moves only (a forced take, or cards that are
all equivalent) is not searched: its value is its child's (``Appraisal.forced``; the walk of
``games.ai.analysis`` fills it in).

One ``Appraiser`` serves a whole game: its heuristic search keeps its transposition table
from position to position (its entries never depend on the path), and starts a new one when
the set of positions the game has seen twice grows (entering one of those is a draw now,
which entries stored before did not know). What proves a value (the solver, the check of a
search's proof) starts afresh at every position, with every position before it held.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, TypeVar

from games.ai.duel import DuelTable, Key
from games.ai.evaluation import WIN_SCORE
from games.ai.search import Searcher
from games.ai.solver import SearchTimeout, Solver
from games.rules.game import MOVE_LIMIT

ESTIMATE_SCALE: Final = 2000.0
"""The search score (hundredths of a card) whose expected score is tanh(1) = 0.76: fitted
to the outcomes of the strongest level's duels against itself (least squares; 2100 over
1,551 positions of 60 games, ``python bench/analysis_games.py --calibrate``, docs/ai.md)."""
ESTIMATE_LIMIT: Final = 0.99
"""An estimate is never certain: its expected score stays within this of a proven one."""
SOLVE_HANDS: Final = 10
"""Positions whose two hands hold at most this many cards are tried with the exact solver
first; larger ones are out of its reach in a real game (docs/ai.md)."""
VERIFY_EXTRA: Final = 6
"""How much deeper than the search the check of its proof may go (within its budget)."""
TABLE_LIMIT: Final = 200_000
"""A search session's transposition table is emptied past this many entries (memory)."""

Session = TypeVar("Session", Searcher, Solver)


def expected_score(score: int) -> float:
    """The mover's expected score in [-1, 1] of a search score: a proven win or loss is
    1 or -1, any other score ``tanh(score / ESTIMATE_SCALE)`` within ``ESTIMATE_LIMIT``."""
    if score > WIN_SCORE // 2:
        return 1.0
    if score < -WIN_SCORE // 2:
        return -1.0
    return max(-ESTIMATE_LIMIT, min(ESTIMATE_LIMIT, math.tanh(score / ESTIMATE_SCALE)))


@dataclass(frozen=True, slots=True)
class Appraisal:
    value: float
    """For the mover, in [-1, 1]."""
    exact: bool
    best: tuple[int, ...]
    """Codes of the best moves: every value-keeping move when the solver solved the
    position, else the search's best move."""
    played: float | None = None
    """The value for the mover of the move played, measured like ``compared_best`` (the
    solver's, or the search's to the same depth). None: not known (the budget ran out, or
    no move follows)."""
    compared_best: float | None = None
    """The best move's value in the same measure as ``played``."""
    forced: bool = False
    """One class of moves only: the value is its child's, which the walk fills in."""


class Appraiser:
    """Appraises the positions of one duel (its trumps and variant) in turn."""

    def __init__(self, trumps: tuple[int, int], strict: bool, nodes: int) -> None:
        self.nodes = nodes
        """The budget of one position, in search nodes."""
        self.table = DuelTable(trumps, strict)
        self.exact_table = DuelTable(trumps, strict, collapse=False)
        self._held: list[Key] = []
        self._repeated: frozenset[Key] = frozenset()
        self._searcher = Searcher(self.table)

    def went_through(self, key: Key, repeated: frozenset[Key]) -> None:
        """The game went through ``key``; ``repeated``: the positions it has now seen
        twice (entering one again is a draw by the rules, not by the path)."""
        self._held.append(key)
        if repeated != self._repeated:
            self._repeated = repeated
            self._searcher = self._hold(Searcher(self.table, repeated))
        else:
            self._searcher.hold(key)

    def appraise(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                 played: int | None) -> Appraisal:
        """The position ``(me, opp, pile, mover)``, after the ones the game went through;
        ``played``: the move that followed, if any."""
        moves = self.table.ordered_moves(me, opp, pile, mover)
        if len(moves) == 1:
            return Appraisal(0.0, False, (moves[0],), forced=True)
        if (me | opp).bit_count() <= SOLVE_HANDS:
            solved = self._solve(me, opp, pile, mover, played)
            if solved is not None:
                return solved
        return self._search(me, opp, pile, mover, played)

    def _hold(self, session: Session) -> Session:
        """The session with the positions the game went through once held on its path."""
        for key in self._held:
            if key not in self._repeated:
                session.hold(key)
        return session

    def _solve(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
               played: int | None) -> Appraisal | None:
        solver = self._hold(Solver(self.exact_table, self._repeated,
                                   max_nodes=self.nodes // 2,
                                   plies_left=MOVE_LIMIT - len(self._held)))
        try:
            solution = solver.solve(me, opp, pile, mover, all_moves=True)
        except SearchTimeout:
            return None
        values = dict(solution.move_values)
        played_value = values.get(played) if played is not None else None
        return Appraisal(
            float(solution.value), True, solution.moves,
            played=None if played_value is None else float(played_value),
            compared_best=float(solution.value),
        )

    def _search(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
                played: int | None) -> Appraisal:
        searcher = self._fresh(self._searcher)
        searcher.max_nodes = searcher.nodes + self.nodes
        result = searcher.search(me, opp, pile, mover)
        value, exact = expected_score(result.score), False
        if abs(value) == 1.0:
            # A session of its own: entries stored before the last positions were held
            # could rest on lines through them.
            verifier = self._hold(Searcher(self.exact_table, self._repeated,
                                           max_nodes=self.nodes // 2))
            try:
                # Deepening: a short proof is found at its own depth, cheaply. Past the
                # search's depth too: a move forced only once cards are collapsed costs the
                # verifier a ply of depth that it cost the search nothing.
                exact = any(verifier.proves(me, opp, pile, mover, depth, value > 0)
                            for depth in range(1, result.depth + VERIFY_EXTRA + 1))
            except SearchTimeout:
                exact = False
            if not exact:
                value = math.copysign(ESTIMATE_LIMIT, value)
        played_value: float | None = None
        if played == result.move:
            played_value = expected_score(result.score)
        elif played is not None:
            searcher.max_nodes = searcher.nodes + self.nodes // 4
            try:
                played_value = expected_score(searcher.move_score(
                    me, opp, pile, mover, played, max(1, result.depth)))
            except SearchTimeout:
                played_value = None
        return Appraisal(value, exact, (result.move,), played=played_value,
                         compared_best=expected_score(result.score))

    def _fresh(self, searcher: Searcher) -> Searcher:
        """The session, its table emptied if it grew too large (memory)."""
        if searcher.table_size() > TABLE_LIMIT:
            searcher.clear_table()
        return searcher
