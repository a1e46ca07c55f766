"""Puzzles cut from duel positions, every step proved exactly.

Public names: ``PuzzleFinder``, ``find_puzzle``, ``MAX_STEPS``.

A position is a puzzle when the player to move wins, every move that keeps the win is one
move up to interchangeable cards (``games.ai.puzzles.equivalence``), and every other move is
proven to lose or draw (``games.ai.puzzles.proofs``: the exact solver on small positions,
the analysis's exact proofs elsewhere). A move whose value cannot be proven makes the
position no puzzle. The accepted moves of a step are exactly the moves proven to win.

The line goes on while it stays a puzzle: after the player's move the defender, who loses
whatever they do, plays the reply that holds out longest (the search scores wins by their
distance); if the player then again has exactly one winning answer, it is the next step.
The line ends with a player's move, when the player wins from there whatever the answer
is unique or not (several ways win, every move wins, or the game is over).

A cheap filter comes first: the search with cards collapsed must see a forced win, else
the position is not proven at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from games.ai.duel import WIN, DuelTable, Key
from games.ai.duel_search import SearchTimeout
from games.ai.evaluation import WIN_SCORE
from games.ai.puzzles.equivalence import card_labels, move_signature
from games.ai.puzzles.lines import Puzzle, Step
from games.ai.puzzles.proofs import SOLVE_STATES, Prover
from games.ai.puzzles.themes import puzzle_rating, puzzle_themes
from games.ai.search import Searcher
from games.rules.cards import mask_of
from games.rules.state import State

MAX_STEPS: Final = 15
"""The longest line, in moves of both sides."""
FILTER_NODES: Final = 4_000
"""The budget of the cheap filter's search, in nodes."""


@dataclass(slots=True)
class PuzzleFinder:
    """Finds puzzles in positions of duels of one pair of trumps."""

    trumps: tuple[int, int]
    strict: bool = False
    max_nodes: int = 60_000
    """The proof budget of one move (``Prover.max_nodes``)."""
    solve_states: int = SOLVE_STATES
    """The solver's budget (``Prover.solve_states``)."""
    examined: int = 0
    """Positions looked at (the cheap filter included)."""
    prover: Prover = field(init=False)
    quick: Searcher = field(init=False)

    def __post_init__(self) -> None:
        self.prover = Prover(self.trumps, self.strict, self.max_nodes, self.solve_states)
        self.quick = Searcher(DuelTable(self.trumps, self.strict))

    @property
    def table(self) -> DuelTable:
        return self.prover.table

    def _looks_won(self, me: int, opp: int, pile: tuple[int, ...], mover: int) -> bool:
        quick = self.quick
        if quick.table_size() > 200_000:
            quick.clear_table()
        quick.max_nodes = quick.nodes + FILTER_NODES
        return quick.search(me, opp, pile, mover, max_depth=10).score > WIN_SCORE // 2

    def answer(self, me: int, opp: int, pile: tuple[int, ...],
               mover: int) -> tuple[tuple[int, ...], int] | None:
        """The proven winning moves and the number of classes of other moves, if the
        winning moves are one class and every other move is proven not to win."""
        prover = self.prover
        moves = prover.moves(me, opp, pile, mover)
        labels = card_labels(self.table, me, me | opp | mask_of(pile))
        classes = {move_signature(code, labels) for code in moves}
        if len(classes) < 2:
            return None
        values = prover.solve_all(me, opp, pile, mover)
        winning: list[int] = []
        signature = None
        for code in moves:
            value = values.get(code) if values is not None else prover.move_value(
                me, opp, pile, mover, code)
            if value is None:
                return None
            if value == WIN:
                if signature is None:
                    signature = move_signature(code, labels)
                elif move_signature(code, labels) != signature:
                    return None
                winning.append(code)
        if signature is None:
            return None
        return tuple(sorted(winning)), len(classes) - 1

    def find(self, state: State, ply: int | None = None) -> Puzzle | None:
        """The puzzle of ``state`` (a duel position, the player to move), or None."""
        if state.n_players != 2 or state.is_over() or state.strict != self.strict:
            return None
        h0, h1 = state.hand_masks
        mover = state.to_move
        me, opp = (h0, h1) if mover == 0 else (h1, h0)
        pile = state.pile_codes
        self.examined += 1
        try:
            if not self._looks_won(me, opp, pile, mover):
                return None
        except SearchTimeout:
            return None
        first = self.answer(me, opp, pile, mover)
        if first is None:
            return None
        accepted, wrong = first
        mine, _after = self.table.play(me, pile, accepted[0])
        if not mine:
            return None  # going out at once: no puzzle
        steps = [Step(accepted[0], accepted, True)]
        while len(steps) + 2 <= MAX_STEPS:
            me, pile = self.table.play(me, pile, steps[-1].move)
            if not me:
                break
            reply = self.prover.longest_defence(opp, me, pile, 1 - mover)
            opp, after = self.table.play(opp, pile, reply)
            if not opp:
                break  # cannot happen after a proven win; ends the line all the same
            answer = self.answer(me, opp, after, mover)
            if answer is None:
                break
            pile = after
            steps.append(Step(reply, (reply,), False))
            steps.append(Step(answer[0][0], answer[0], True))
        themes = puzzle_themes(self.table, state, steps)
        return Puzzle(state.tpn(), ply, tuple(steps), themes,
                      puzzle_rating(state, steps, wrong, themes), wrong)

    def in_game(self, start: State, codes: Iterable[int],
                last: int | None = None) -> Iterator[Puzzle]:
        """The puzzles of a game's positions in turn (``codes``: its moves), of its
        ``last`` positions only if given (a full deal's proven wins are near its end).

        Puzzles of one game never overlap: once a puzzle is kept, the positions the game
        reaches within its line's plies are not examined (whatever the game played there:
        the line's own moves, an interchangeable card, or another reply), nor any later
        position where its line has the player to move (the game may come back to one by
        takes); and a later puzzle whose line has the player to move at a kept puzzle's
        position is not kept. So no puzzle is the tail of another of the same game.

        The solver's graphs of the game are dropped at its end: a run keeps a finder for
        each pair of trumps, and the graph of a 10-card game holds up to about 50 MB."""
        try:
            yield from self._in_game(start, codes, last)
        finally:
            self.prover.forget()

    def _in_game(self, start: State, codes: Iterable[int],
                 last: int | None) -> Iterator[Puzzle]:
        state = start.clone()
        covered: set[Key] = set()
        starts: set[Key] = set()
        line_end = -1  # the ply of the last kept puzzle's last move
        moves = [*codes, None]
        first = 0 if last is None else max(0, len(moves) - last)
        for ply, code in enumerate(moves):
            if state.is_over():
                return
            key = _key(state)
            if ply >= first and ply > line_end and key not in covered:
                puzzle = self.find(state, ply)
                if puzzle is not None:
                    line = _line_keys(state, puzzle)
                    if not line & starts:
                        covered |= line
                        starts.add(key)
                        line_end = ply + len(puzzle.steps) - 1
                        yield puzzle
            if code is None:
                return
            state.apply_code(code)


def _key(state: State) -> Key:
    h0, h1 = state.hand_masks
    return (h0, h1, state.pile_codes, state.to_move)


def _line_keys(state: State, puzzle: Puzzle) -> set[Key]:
    """The positions where the player moves along the puzzle's line."""
    line = state.clone()
    keys = set()
    for step in puzzle.steps:
        if step.player:
            keys.add(_key(line))
        line.apply_code(step.move)
    return keys


def find_puzzle(state: State, *, max_nodes: int = 60_000) -> Puzzle | None:
    """The puzzle of one duel position, or None."""
    t0, t1 = state.trumps
    return PuzzleFinder((int(t0), int(t1)), state.strict, max_nodes).find(state)
