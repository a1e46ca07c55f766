"""The exact solver of duel positions: win, draw or loss for the mover, with all the
moves that keep that value.

Public names: ``Solver``, ``Solution``, ``solve``, ``MAX_PLY``; ``SearchTimeout`` (from
``games.ai.duel_search``, whose session ``Solver`` is).

It is an alpha-beta search over the three values -1, 0, 1 with a transposition table of
bounds, the quick "can go out and win now" cut-off, the duel's move ordering and (unless
``collapse=False``) equivalent cards collapsed.

Repetition. A position that occurs again on the search path scores a draw, and so does a
position the game has already seen twice (its next occurrence is the third). Such a draw
depends on the path, and storing it as the value of the position would be the
graph-history-interaction error. So every result carries the set of positions on the path
whose repetition it relied on: a lower bound relies only on the child that gave it, an
upper bound or exact value on all children searched; a repetition of the position itself
is part of its own value (cycling back to it is a draw from here, whatever came before).
A result that relies on nothing is stored as the position's value. One that relies on
earlier positions is stored only with that condition, and used again only where all of
them are on the current path: those repetitions are then draws again, and further
repetition draws on a new path cannot undo a bound of 0 (they only ever turn a loss or a
win into a draw, so "the mover cannot lose" and "cannot win" both survive them).
Positions the game has seen twice are draws for the whole session, like the rules say.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from games.ai.duel import DRAW, WIN, DuelTable, Key
from games.ai.duel_search import CHECK_EVERY, DuelSearch, SearchTimeout, repeated_keys
from games.rules.moves import format_move_code
from games.rules.state import PositionKey, State

__all__ = ["MAX_PLY", "SearchTimeout", "Solution", "Solver", "solve"]

Deps = frozenset[Key]
NO_DEPS: Final[Deps] = frozenset()
MAX_PLY: Final = 600
"""Deeper than this the solver gives up (SearchTimeout) rather than guess: long lines of
takes can wander through thousands of distinct positions."""


@dataclass(frozen=True, slots=True)
class Solution:
    value: int
    """For the mover: 1 win, 0 draw, -1 loss."""
    moves: tuple[int, ...]
    """Codes of the moves that keep the value (all legal ones if ``all_moves``)."""
    nodes: int
    move_values: tuple[tuple[int, int], ...] = ()
    """``(code, value for the mover)`` of every move tried at the root: all legal moves
    if ``all_moves``."""
    relies_on: frozenset[Key] = frozenset()
    """Positions held on the path above the root (``DuelSearch.hold``) whose repetition the
    value relied on; empty: the value is the position's whatever the path to it."""

    def moves_text(self) -> list[str]:
        return [format_move_code(c) for c in self.moves]


class Solver(DuelSearch[tuple[int, int, int, Deps]]):
    """One solving session (see ``games.ai.duel_search``); its table holds the bounds,
    the best move and the positions the bounds rely on."""

    MAX_PLY = MAX_PLY

    def value(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
              alpha: int = -1, beta: int = 1, ply: int = 0) -> tuple[int, Deps]:
        """The value for the mover (fail-soft within ``alpha..beta``) and the positions on
        the path that a repetition draw under it relied on (see the module docstring)."""
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0:
            self._check_budget()
        if ply > MAX_PLY:
            raise SearchTimeout
        key = (me, opp, pile, 0) if mover == 0 else (opp, me, pile, 1)
        path = self._path
        if key in path:
            return DRAW, frozenset((key,))
        if key in self.repeated:
            return DRAW, NO_DEPS
        entry = self.tt.get(key)
        hint = -1
        if entry is not None:
            lower, upper, hint, needs = entry
            if not needs or all(k in path for k in needs):
                if lower >= beta or lower == upper or upper <= alpha:
                    return (lower if lower >= beta or lower == upper else upper), needs
                if not needs:
                    alpha = max(alpha, lower)
                    beta = min(beta, upper)
            else:
                entry = None
        table = self.table
        if table.wins_now(me, opp, pile, mover) is not None:
            self.tt[key] = (WIN, WIN, hint, NO_DEPS)
            return WIN, NO_DEPS
        moves = table.ordered_moves(me, opp, pile, mover, hint)
        alpha0 = alpha
        best, best_move = -2, moves[0]
        best_deps = all_deps = NO_DEPS
        path[key] = ply
        try:
            for code in moves:
                mine, after = table.play(me, pile, code)
                if not mine:
                    v, deps = table.out_value(opp, after, mover), NO_DEPS
                else:
                    v, deps = self.value(opp, mine, after, 1 - mover, -beta, -alpha, ply + 1)
                    v = -v
                if deps:
                    all_deps = all_deps | deps
                if v > best:
                    best, best_move, best_deps = v, code, deps
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        finally:
            del path[key]
        # A lower bound rests on one child; an upper bound or exact value on all of them.
        # A repetition of this very position is part of its own value: cycling back here
        # is a draw whatever the path before.
        deps = best_deps if best >= beta or best == WIN else all_deps
        if key in deps:
            deps = deps - {key}
        lower, upper = -1, 1
        if entry is not None and not entry[3] and not deps:
            lower, upper = entry[0], entry[1]
        if best <= alpha0:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.tt[key] = (lower, upper, best_move, deps)
        return best, deps

    def solve(self, me: int, opp: int, pile: tuple[int, ...], mover: int,
              all_moves: bool = False) -> Solution:
        """The exact value and the value-keeping moves (the first found, or all of them).

        With ``all_moves`` every legal move is tried, not one per class of equivalent
        moves, so that the list is complete."""
        value, relies_on = self.value(me, opp, pile, mover)
        keeping: list[int] = []
        values: list[tuple[int, int]] = []
        table = self.table
        if all_moves:
            collapse, table.collapse = table.collapse, False
            moves = table.ordered_moves(me, opp, pile, mover)
            table.collapse = collapse
        else:
            moves = table.ordered_moves(me, opp, pile, mover)
        with self._at_root(me, opp, pile, mover):
            for code in moves:
                # The full window (-1..1): the move's exact value, not a bound.
                move_value = self._root_value(me, opp, pile, mover, code, -1)
                values.append((code, move_value))
                if move_value == value:
                    keeping.append(code)
                    if not all_moves:
                        break
        return Solution(value, tuple(keeping), self.nodes, tuple(values), relies_on)

    def _child(self, me: int, opp: int, pile: tuple[int, ...], mover: int, alpha: int,
               beta: int, depth: int) -> int:
        return self.value(me, opp, pile, mover, alpha, beta, 1)[0]


def solve(state: State, history: Iterable[PositionKey] = (), *, all_moves: bool = True,
          collapse: bool = False, deadline: float | None = None,
          max_nodes: int | None = None) -> Solution:
    """Solve a duel position exactly (raises SearchTimeout past ``deadline``/``max_nodes``).

    ``history`` holds the ``State.key()`` of every position the game has been in, the
    current one included (``Game.position_keys()``); those seen twice already are draws to
    enter again."""
    if state.n_players != 2:
        raise ValueError("only the duel is a game of perfect information")
    if state.is_over():
        raise ValueError("the game is over")
    t0, t1 = state.trumps
    table = DuelTable((int(t0), int(t1)), state.strict, collapse)
    solver = Solver(table, repeated_keys(history), deadline, max_nodes=max_nodes)
    h0, h1 = state.hand_masks
    mover = state.to_move
    me, opp = (h0, h1) if mover == 0 else (h1, h0)
    return solver.solve(me, opp, state.pile_codes, mover, all_moves)
