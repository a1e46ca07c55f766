"""The strong duel player: exact solving when the position is small, search otherwise.

Public names: ``duel_move``, ``SOLVE_CARDS``, ``ENGINE_STATES``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from games.ai.duel import DuelTable, Key
from games.ai.search import Searcher, SearchResult
from games.ai.solver import RETROGRADE_STATES, SearchTimeout, Solver
from games.rules.cards import mask_of
from games.rules.game import MOVE_LIMIT
from games.rules.moves import format_move_code
from games.rules.state import State

SOLVE_CARDS = 14
"""Positions with at most this many cards in play (hands and pile) are solved first."""
SOLVE_HANDS = 8
"""... and so are positions with at most this many cards in the two hands."""
ENGINE_STATES = min(RETROGRADE_STATES, 2_000_000)
"""The largest graph a move's retrograde analysis builds (the process peaks at about 190 MB
there, compiled, 1.1 s of CPU): the AI's workers run one move per process at a time, and a
longer movetime than the levels' (the engine protocol's, the arena's) must not grow a
process to the solver's own limit (1.8 GB); within a level's budget (a quarter of a
second) the analysis stops at its deadline long before this (docs/ai.md)."""

Info = Callable[[str], None]


def duel_move(
    state: State,
    seconds: float,
    *,
    repeated: Iterable[Key] = (),
    should_stop: Callable[[], bool] | None = None,
    max_depth: int = 64,
    solve: bool = True,
    info: Info | None = None,
    ply: int = 0,
) -> int:
    """The move code to play; returns within about ``seconds`` (less when the move is
    forced, the position is solved or the next iteration could not finish in time).
    ``ply``: the game's ply, for the move limit."""
    start = time.monotonic()
    deadline = start + seconds
    h0, h1 = state.hand_masks
    mover = state.to_move
    me, opp = (h0, h1) if mover == 0 else (h1, h0)
    pile = state.pile_codes
    t0, t1 = state.trumps
    repeated = frozenset(repeated)
    table = DuelTable((int(t0), int(t1)), state.strict)
    moves = table.ordered_moves(me, opp, pile, mover)
    if len(moves) == 1:
        return moves[0]
    quick = table.wins_now(me, opp, pile, mover)
    if quick is not None:
        return quick
    in_play = (me | opp | mask_of(pile)).bit_count()
    # In a real game all 36 cards stay in play (the pile comes back by takes), so small
    # hands are tried too: the solver gives up (SearchTimeout) when the position is too
    # large to solve in time, and the search, whose proven wins are exact too, takes over.
    if solve and (in_play <= SOLVE_CARDS or (me | opp).bit_count() <= SOLVE_HANDS):
        # Exact: no collapsing of cards, whose equivalence is not exact (see duel.py).
        # The smaller the position, the likelier the solver finishes and the less the
        # heuristic search is worth: small ones get most of the time.
        share = 0.85 if in_play <= 10 else 0.5
        exact = DuelTable(table.trumps, state.strict, collapse=False)
        solver = Solver(exact, repeated, start + seconds * share, should_stop,
                        plies_left=MOVE_LIMIT - ply, max_states=ENGINE_STATES)
        try:
            solution = solver.solve(me, opp, pile, mover)
        except SearchTimeout:
            solution = None
        if solution is not None:
            if info is not None:
                info(f"info solved value {solution.value} nodes {solution.nodes} "
                     f"time {round((time.monotonic() - start) * 1000)}")
            # A lost position is left to the search, which plays for the opponent's
            # mistakes; a won or drawn one keeps its value.
            if solution.value >= 0 and solution.moves:
                return solution.moves[0]
    searcher = Searcher(table, repeated, deadline, should_stop)

    def report(result: SearchResult) -> bool:
        if info is not None:
            info(f"info depth {result.depth} score {result.score} nodes {result.nodes} "
                 f"time {round(result.seconds * 1000)} pv {format_move_code(result.move)}")
        # Do not start a depth that cannot finish: each one costs several times the last.
        return (time.monotonic() - start) * 4 < seconds

    return searcher.search(me, opp, pile, mover, report, max_depth).move
