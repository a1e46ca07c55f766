"""analyse() evaluates every position of a duel, exactly only where the value is proven, and
marks the moves that lowered their mover's evaluation: exact marks where the move changed
the proven value, estimated ones elsewhere."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.ai.appraisal as appraisal_module
from games.ai.analysis import JUDGEMENTS, Analysis, Judgement, analyse, nodes_per_position
from games.ai.appraisal import ESTIMATE_LIMIT, expected_score
from games.ai.duel import DuelTable, Key
from games.ai.duel_search import repeated_keys
from games.ai.endgames import random_endgame
from games.ai.evaluation import WIN_SCORE
from games.ai.match import make_bot
from games.ai.solver import Solver, solve
from games.rules.deal import deal
from games.rules.game import MOVE_LIMIT, Game
from games.rules.moves import Move
from games.rules.state import State
from tests.ai.reference import move_values

START = "SH 7C9HAS/KD6HTH 8S 1 -"


def _finish(game: Game) -> Game:
    """Play the game out with value-keeping moves."""
    while not game.is_over():
        game.play(solve(game.state, all_moves=False).moves_text()[0])
    return game


def _mover_values(game: Game, analysis: Analysis) -> list[tuple[int, float]]:
    """The mover of each position and its evaluation for that mover."""
    state = game.start.clone()
    out = []
    for ply, evaluation in enumerate(analysis.evaluations):
        mover = state.to_move
        out.append((mover, evaluation.value if mover == 0 else -evaluation.value))
        if ply < game.ply:
            state.apply_code(game.move_codes[ply])
    return out


def _played_out(state: State, rng: random.Random, plies: int = 400) -> Game:
    """A game from ``state`` with moves chosen by a weak bot, so that it has mistakes."""
    game = Game(state)
    bot = make_bot("level1")
    while not game.is_over() and game.ply < plies:
        game.play(Move.from_code(bot(game, rng), bool(game.state.pile_codes)))
    return game


def test_a_move_that_turns_a_proven_win_into_a_loss_is_an_exact_blunder() -> None:
    best = solve(State.from_tpn(START), all_moves=True)
    assert best.value == 1
    assert 1401 not in best.moves  # "+1" throws the win away
    game = _finish(Game.from_tpn(START, ["+1"]))
    analysis = analyse(game)
    first = analysis.mistakes[0]
    assert (first.ply, str(first.move), first.value_before) == (0, "+1", 1.0)
    child = State.from_tpn(START)
    child.apply("+1")
    assert first.value_after == -solve(child).value == -1.0
    assert first.exact
    assert first.judgement is Judgement.BLUNDER
    assert {str(m) for m in first.best_moves} == set(best.moves_text())
    # Seat 1 is to move at the start: seat 0's expected score is the opposite of its value.
    assert analysis.evaluations[0].value == -1.0
    assert analysis.evaluations[0].exact
    assert analysis.evaluations[1].value == 1.0
    assert all(e.exact for e in analysis.evaluations)  # every position of it is solved


def test_a_perfect_game_has_no_mistakes_and_start_plus_moves_works_too() -> None:
    game = _finish(Game.from_tpn(START))
    analysis = analyse(game)
    assert analysis.mistakes == ()
    assert len(analysis.evaluations) == game.ply + 1
    assert analyse(State.from_tpn(START), game.moves) == analysis


def test_the_solver_values_every_move() -> None:
    rng = random.Random(5)
    for _ in range(30):
        state = random_endgame(rng, rng.randint(3, 6))
        solution = solve(state, all_moves=True)
        assert dict(solution.move_values) == move_values(state)


def _check_exactness(game: Game, analysis: Analysis) -> int:
    """Every exact evaluation is the solver's value (where the solver can tell, with the
    game's history), every estimate stays short of certainty. Returns how many exact values
    were compared."""
    keys = game.position_keys()
    state = game.start.clone()
    compared = 0
    sessions: dict[frozenset[Key], Solver] = {}
    for ply, evaluation in enumerate(analysis.evaluations):
        if not evaluation.exact:
            assert abs(evaluation.value) <= ESTIMATE_LIMIT, ply
        else:
            assert evaluation.value in (-1.0, 0.0, 1.0), ply
            in_play = state.hand_size(0) + state.hand_size(1) + len(state.pile_codes)
            # Up to 9 cards the solver's retrograde analysis answers within a second, and
            # one session answers the positions after it at once (while the positions
            # seen twice stay the same).
            if not state.is_over() and ply < game.ply and in_play <= 9:
                # The positions up to this one: those seen twice are draws to enter.
                repeated = repeated_keys(keys[: ply + 1])
                t0, t1 = state.trumps
                solver = sessions.setdefault(repeated, Solver(
                    DuelTable((int(t0), int(t1)), state.strict, collapse=False), repeated,
                    plies_left=MOVE_LIMIT - ply))
                h0, h1 = state.hand_masks
                me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
                solver.plies_left = MOVE_LIMIT - ply
                solution = solver.solve(me, opp, state.pile_codes, state.to_move)
                seat0 = solution.value if state.to_move == 0 else -solution.value
                assert evaluation.value == seat0, (ply, state.tpn())
                compared += 1
        if ply < game.ply:
            state.apply_code(game.move_codes[ply])
    return compared


@settings(max_examples=30)
@given(st.integers(0, 10_000), st.integers(7, 11), st.booleans())
def test_exact_values_are_proven_and_estimates_never_labelled_exact(
        seed: int, n_cards: int, search_only: bool) -> None:
    """Small endgames played out badly, analysed on a small budget; with ``search_only``
    the exact solver is left out, so that the exact values come from the search's proofs
    and from what follows from them."""
    rng = random.Random(seed)
    game = _played_out(random_endgame(rng, n_cards), rng)
    with pytest.MonkeyPatch.context() as patch:
        if search_only:
            patch.setattr(appraisal_module, "SOLVE_HANDS", 0)
        analysis = analyse(game, nodes=3_000)
    _check_exactness(game, analysis)


def test_a_whole_game_gets_an_evaluation_of_every_position_and_marks() -> None:
    """An ordinary game from a deal, a beginner against the club player."""
    rng = random.Random(3)
    game = Game(deal(2, 41))
    bots = [make_bot("level1"), make_bot("level3")]
    while not game.is_over():
        game.play(Move.from_code(bots[game.state.to_move](game, rng),
                                 bool(game.state.pile_codes)))
    analysis = analyse(game, nodes=4_000)
    assert len(analysis.evaluations) == game.ply + 1
    assert analysis.evaluations[-1].exact  # the end
    assert any(not e.exact for e in analysis.evaluations)
    # All 36 cards stay in play: the solver's retrograde analysis reaches none of these
    # positions, so only the estimates' bounds are checked here.
    _check_exactness(game, analysis)
    movers = _mover_values(game, analysis)
    beginner = [m for m in analysis.mistakes if movers[m.ply][0] == 0]
    assert beginner, "the beginner's mistakes are marked"
    for mistake in analysis.mistakes:
        before = movers[mistake.ply][1]
        after = -movers[mistake.ply + 1][1]
        assert (mistake.value_before, mistake.value_after) == (before, after)
        least = dict((j, t) for t, j in JUDGEMENTS)[mistake.judgement]
        assert before - after >= least - 1e-9  # the graph shows the drop
        both_exact = (analysis.evaluations[mistake.ply].exact
                      and analysis.evaluations[mistake.ply + 1].exact)
        assert mistake.exact == both_exact
        assert mistake.best_moves
        assert mistake.move not in mistake.best_moves
        state = game.start.clone()
        for code in game.move_codes[: mistake.ply]:
            state.apply_code(code)
        assert len(state.legal_move_codes()) > 1  # a forced move is never marked


def test_the_analysis_is_the_same_every_time() -> None:
    rng = random.Random(8)
    game = _played_out(deal(2, 12), rng, plies=60)
    first = analyse(game, nodes=2_000)
    assert analyse(game, nodes=2_000) == first
    assert analyse(Game.from_tpn(game.start.tpn(), game.moves), nodes=2_000) == first


def test_the_budget_shrinks_with_the_length_of_the_game() -> None:
    budgets = [nodes_per_position(plies) for plies in (10, 100, 500, 2000)]
    assert budgets == sorted(budgets, reverse=True)
    assert budgets[0] > budgets[-1] > 0


def test_a_game_budget_is_shared_in_the_same_proportions_at_any_size() -> None:
    for plies in (10, 299, 5000):
        assert nodes_per_position(plies, 48_000_000) == 16 * nodes_per_position(plies,
                                                                                 3_000_000)
    assert nodes_per_position(10, 3_000_000) == 30_000  # at most a hundredth of the game's
    assert nodes_per_position(5000, 3_000_000) == 1_500  # at least a 2000th
    assert nodes_per_position(299, 3_000_000) == 10_000  # else an equal share
    with pytest.raises(ValueError, match="at least"):
        nodes_per_position(10, 1_000)


def test_expected_scores_of_search_scores() -> None:
    assert expected_score(WIN_SCORE - 5) == 1.0
    assert expected_score(-WIN_SCORE + 5) == -1.0
    assert expected_score(0) == 0.0
    assert 0 < expected_score(100) < expected_score(300) <= ESTIMATE_LIMIT
    assert expected_score(50_000) == ESTIMATE_LIMIT  # far ahead, but not proven
    assert expected_score(-100) == -expected_score(100)


def test_only_duels_are_analysed() -> None:
    with pytest.raises(ValueError, match="duels"):
        analyse(Game(deal(3, 1)))
