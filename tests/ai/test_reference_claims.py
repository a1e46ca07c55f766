"""What the puzzles and the replay's analysis claim as proven, against the independent
reference (tests/ai/retro_reference.py): a puzzle's accepted moves are exactly the winning
moves at every step of its line, and the defender is lost at each of its replies; the
analysis's exact values and exact marks are the game's values, with the game's past."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai.analysis import analyse
from games.ai.match import make_bot
from games.ai.puzzles.finder import find_puzzle
from games.ai.puzzles.lines import Puzzle
from games.rules.game import MOVE_LIMIT, Game
from games.rules.moves import Move, format_move_code
from games.rules.state import State
from tests.ai.agreement import random_state
from tests.ai.retro_reference import Analysis, Position, parse_position


def _a_puzzle(rng: random.Random, n_cards: int, strict: bool) -> tuple[State, Puzzle]:
    """A random position of ``n_cards`` cards that the finder calls a puzzle (about one in
    ten is)."""
    while True:
        state = random_state(rng, n_cards, strict)
        puzzle = find_puzzle(state)
        if puzzle is not None:
            return state, puzzle


@settings(max_examples=30)
@given(st.integers(0, 2**32), st.integers(5, 9), st.booleans())
def test_a_puzzles_accepted_moves_are_the_winning_moves(seed: int, n_cards: int,
                                                        strict: bool) -> None:
    rng = random.Random(seed)
    state, puzzle = _a_puzzle(rng, n_cards, strict)
    trumps, root = parse_position(state.tpn())
    reference = Analysis(root, trumps, strict, set())
    line = state.clone()
    for step in puzzle.steps:
        values = reference.move_values(parse_position(line.tpn())[1], MOVE_LIMIT)
        if step.player:
            # The unique answer (up to equivalent cards) is every move that wins, no other.
            assert {format_move_code(code) for code in step.accepted} == {
                text for text, value in values.items() if value == 1}, (state.tpn(), step)
        else:
            assert max(values.values()) == -1, (state.tpn(), step)  # the defender is lost
        line.apply_code(step.move)
    if not line.is_over():
        # The line ends with the player's move, after which the defender is lost still.
        after = reference.move_values(parse_position(line.tpn())[1], MOVE_LIMIT)
        assert max(after.values()) == -1, state.tpn()


class GameReference:
    """The reference's values of a game's positions with its past: one analysis per set of
    positions seen twice, from the first position with that set (the game goes on inside
    its graph, never entering a position seen twice again, which would end it)."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.analyses: dict[frozenset[Position], Analysis] = {}

    def move_values(self, state: State, history: list[str], ply: int) -> dict[str, int]:
        trumps, position = parse_position(state.tpn())
        counts: dict[Position, int] = {}
        for text in history:
            seen = parse_position(text)[1]
            counts[seen] = counts.get(seen, 0) + 1
        draws = frozenset(seen for seen, count in counts.items() if count >= 2)
        analysis = self.analyses.get(draws)
        if analysis is None or position not in analysis.number:
            analysis = self.analyses[draws] = Analysis(position, trumps, self.strict,
                                                       set(draws))
        return analysis.move_values(position, MOVE_LIMIT - ply)


@settings(max_examples=40)
@given(st.integers(0, 2**32), st.integers(5, 8), st.booleans(),
       st.sampled_from([2_000, 20_000]))
def test_the_analysis_exact_values_and_marks_are_the_references(
        seed: int, n_cards: int, strict: bool, nodes: int) -> None:
    """A game of a beginner against itself from a random position (its mistakes, its
    repetitions), analysed on a small budget: the search's proofs where the solver's share
    of it runs out, the solver's values where it does not."""
    rng = random.Random(seed)
    game = Game(random_state(rng, n_cards, strict))
    bot = make_bot("level1")
    while not game.is_over() and game.ply < 300:
        game.play(Move.from_code(bot(game, rng), bool(game.state.pile_codes)))
    analysis = analyse(game, nodes=nodes)
    reference = GameReference(strict)
    state = game.start.clone()
    history: list[str] = []
    best: dict[int, set[str]] = {}
    for ply, evaluation in enumerate(analysis.evaluations[: game.ply]):
        history.append(state.tpn())
        if evaluation.exact:
            values = reference.move_values(state, history, ply)
            value = max(values.values())
            assert evaluation.value == (value if state.to_move == 0 else -value), (
                ply, game.start.tpn(), game.moves)
            best[ply] = {text for text, v in values.items() if v == value}
        state.apply_code(game.move_codes[ply])
    for mistake in analysis.mistakes:
        if mistake.exact:
            # The move changed the proven value, and its best moves keep it (every such
            # move where the solver solved the position, the proof's move elsewhere).
            assert mistake.value_before > mistake.value_after
            shown = {str(move) for move in mistake.best_moves}
            assert shown
            assert shown <= best[mistake.ply], (game.start.tpn(), game.moves)
            assert str(mistake.move) not in best[mistake.ply]
