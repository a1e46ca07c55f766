"""The puzzles' core: the finder's lines, their themes, interchangeable cards, self-play,
and every generated puzzle re-checked with the exact solver from scratch."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai.duel import DuelTable
from games.ai.endgames import random_endgame
from games.ai.puzzles import (
    Puzzle,
    PuzzleFinder,
    SelfPlay,
    card_labels,
    find_puzzle,
    move_signature,
    self_play_puzzles,
)
from games.ai.puzzles.proofs import Prover
from games.ai.solver import SearchTimeout, solve
from games.rules.cards import mask_of, parse_card_code
from games.rules.moves import parse_move_code
from games.rules.state import State

QUICK = (5, 9)
"""Self-play deals whose proofs take the tests little time (the generator's go to 11 cards;
a position of 10 proved by the solver is tested below)."""


def _values(state: State) -> dict[int, int]:
    """Every legal move's exact value for the mover, from scratch: the exact solver, or
    (when its lines of takes run past its depth) a fresh session of the analysis's proofs,
    which must then prove every move."""
    try:
        return dict(solve(state).move_values)
    except SearchTimeout:
        t0, t1 = state.trumps
        prover = Prover((int(t0), int(t1)), max_nodes=200_000)
        h0, h1 = state.hand_masks
        mover = state.to_move
        me, opp = (h0, h1) if mover == 0 else (h1, h0)
        values = {code: prover.move_value(me, opp, state.pile_codes, mover, code)
                  for code in state.legal_move_codes()}
        assert None not in values.values(), "every move proven"
        return {code: value for code, value in values.items() if value is not None}


def _recheck(puzzle: Puzzle) -> None:
    """The puzzle's claims, proved again from scratch at every step."""
    state = State.from_tpn(puzzle.tpn)
    player = state.to_move
    t0, t1 = state.trumps
    table = DuelTable((int(t0), int(t1)), collapse=False)
    assert puzzle.steps[0].player
    assert puzzle.steps[-1].player
    for step in puzzle.steps:
        assert (state.to_move == player) == step.player
        values = _values(state)
        value = max(values.values())
        winning = {code for code, v in values.items() if v == value}
        if step.player:
            assert value == 1
            assert set(step.accepted) == winning, "accepted = the winning moves"
            h0, h1 = state.hand_masks
            me, opp = (h0, h1) if player == 0 else (h1, h0)
            labels = card_labels(table, me, me | opp | mask_of(state.pile_codes))
            assert len({move_signature(c, labels) for c in winning}) == 1
            assert len(winning) < state.count_legal_moves()
        else:
            assert value == -1
            assert values[step.move] == value, "a best reply"
        state.apply_code(step.move)
    if not state.is_over():
        assert max(_values(state).values()) == -1, "the line ends in a won position"
    else:
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.loser == 1 - player


def test_a_line_of_three_moves_with_its_themes() -> None:
    puzzle = find_puzzle(State.from_tpn("DH KC6D7H/ACAH - 1 -"))
    assert puzzle is not None
    assert puzzle.moves_text() == ["AC", "6D-KC", "AH"]
    assert puzzle.themes == ("trump_ace", "last_card", "short_line")
    assert [step.player for step in puzzle.steps] == [True, False, True]
    _recheck(puzzle)


def test_take_to_win_and_the_draw_rule_avoided() -> None:
    puzzle = find_puzzle(State.from_tpn("DC JD/KD QH6S9CJS 0 -"))
    assert puzzle is not None
    assert puzzle.moves_text() == ["+3", "+1", "6S"]
    assert puzzle.themes == ("take_to_win", "draw_rule", "short_line")
    _recheck(puzzle)


def test_interchangeable_cards_are_one_answer_and_all_accepted() -> None:
    # Spades are seat 0's trump; 7S, JS, KS have no spade between them still in play.
    puzzle = find_puzzle(State.from_tpn("SD 7SJSKS/TC 6DKC8CQC 0 -"))
    assert puzzle is not None
    assert len(puzzle.steps[0].accepted) == 6
    assert "7S-JS" in puzzle.moves_text()[0]
    _recheck(puzzle)


def test_every_puzzle_has_a_theme() -> None:
    # Neither line takes, plays a trump ace, ends on the last card or sacrifices: the length
    # of the line is their theme.
    three = find_puzzle(State.from_tpn("HS QC9DKS/AD8H9H - 0 -"))
    assert three is not None
    assert three.moves_text() == ["QC", "+1", "KS"]
    assert three.themes == ("short_line",)
    one = find_puzzle(State.from_tpn("HS QCKS/AD8H9H 9D 1 -"))
    assert one is not None
    assert one.moves_text() == ["AD-8H"]
    assert one.themes == ("one_move",)
    sample = [p for p, _start, _seed in self_play_puzzles(40, seed=0, cards=QUICK)]
    assert all(puzzle.themes for puzzle in sample)
    assert {"one_move", "short_line", "long_line"} <= {t for p in sample for t in p.themes}


# Two self-play games (seeds 111 and 88) where the finder kept puzzles that overlap: at ply 3
# AH-7H, +3, 9D, then at ply 5 (the game had played AH-8H, interchangeable) 9D alone; at
# ply 7 a line of five moves, then at ply 11 a line of seven whose last five are that one.
OVERLAPPING_GAMES = [
    ("DH 9DKHAHTS/7H 8H 0 -", "9D-AH +3 KH AH-8H +3 7H 8H-TS +3 AH +1 KH"),
    ("SC 9H/6C7D8D6SJSKS 9D 0 -",
     "+1 6S +1 JS +1 KS +1 6C KS-6S +3 JS KS-6S +3 6C JS-9H +3 9D 6C-JS +3 9H +1 7D KS-9D "
     "+3 6C +1 9H 6C-KS +3 7D KS-JS +3 6S JS-7D +3 KS +1 8D KS-7D 9D"),
]


def _player_positions(puzzle: Puzzle) -> set[str]:
    state = State.from_tpn(puzzle.tpn)
    seen = set()
    for step in puzzle.steps:
        if step.player:
            seen.add(state.tpn())
        state.apply_code(step.move)
    return seen


def test_puzzles_of_one_game_do_not_overlap() -> None:
    for tpn, moves in OVERLAPPING_GAMES:
        start = State.from_tpn(tpn)
        t0, t1 = start.trumps
        finder = PuzzleFinder((int(t0), int(t1)), max_nodes=20_000)
        found = list(finder.in_game(start, [parse_move_code(m) for m in moves.split()]))
        assert found, tpn
        for before, after in itertools.combinations(found, 2):
            assert before.ply is not None
            assert after.ply is not None
            assert after.ply >= before.ply + len(before.steps)  # not within its line
            assert State.from_tpn(before.tpn).tpn() not in _player_positions(after)
            assert State.from_tpn(after.tpn).tpn() not in _player_positions(before)


def test_signatures_split_at_a_card_in_play() -> None:
    table = DuelTable((3, 2), collapse=False)
    seven, eight, nine = (parse_card_code(c) for c in ("7C", "8C", "9C"))
    labels = card_labels(table, 1 << seven | 1 << nine, 1 << seven | 1 << nine)
    assert move_signature(parse_move_code("7C"), labels) == move_signature(
        parse_move_code("9C"), labels)
    held = 1 << seven | 1 << nine
    labels = card_labels(table, held, held | 1 << eight)  # 8C in the pile separates them
    assert move_signature(parse_move_code("7C"), labels) != move_signature(
        parse_move_code("9C"), labels)


def test_no_puzzle_when_every_move_wins_or_the_move_is_forced() -> None:
    assert find_puzzle(State.from_tpn("SH 9C8S/6H - 0 -")) is None  # both leads win
    assert find_puzzle(State.from_tpn("SH 7H8H/AS TD6CQSJS9S8SKH 1 -")) is None  # forced


def test_self_play_is_reproducible_and_counts_its_work() -> None:
    run = SelfPlay()
    first = [p.tpn for p, _start, _seed in self_play_puzzles(6, seed=11, run=run,
                                                               cards=QUICK)]
    again = [p.tpn for p, _start, _seed in self_play_puzzles(6, seed=11, cards=QUICK)]
    assert first == again
    assert len(set(first)) == 6
    assert run.puzzles == 6
    assert run.examined >= 6
    assert run.games >= 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(5, 8))
def test_every_puzzle_found_is_proved_again_by_the_solver(seed: int, cards: int) -> None:
    state = random_endgame(random.Random(seed), cards)
    if state.is_over():
        return
    puzzle = find_puzzle(state)
    if puzzle is not None:
        _recheck(puzzle)


def test_a_sample_of_self_play_puzzles_is_proved_again() -> None:
    puzzles = [p for p, _start, _seed in self_play_puzzles(25, seed=500, cards=QUICK)]
    for puzzle in puzzles:
        _recheck(puzzle)
    assert any(len(p.steps) >= 3 for p in puzzles)


TEN_CARDS = "SD 7H/6C QDKSACJH9S8H6H8C 0 -"
"""Ten cards in play: a graph of 377 thousand positions."""


def test_the_solver_proves_positions_of_ten_cards_within_its_budget_of_positions() -> None:
    state = State.from_tpn(TEN_CARDS)
    t0, t1 = state.trumps
    h0, h1 = state.hand_masks
    args = (h0, h1, state.pile_codes, state.to_move)
    prover = Prover((int(t0), int(t1)), max_nodes=20_000)
    assert prover.solve_all(*args) == dict(solve(state).move_values)
    assert Prover((int(t0), int(t1)), max_nodes=20_000, solve_states=80_000).solve_all(
        *args) is None


def test_a_finder_drops_the_graphs_of_a_game_at_its_end() -> None:
    state = State.from_tpn(TEN_CARDS)
    t0, t1 = state.trumps
    h0, h1 = state.hand_masks
    finder = PuzzleFinder((int(t0), int(t1)), max_nodes=20_000)
    assert finder.prover.solve_all(h0, h1, state.pile_codes, state.to_move) is not None
    assert len(finder.prover.solver.solved) > 0
    list(finder.in_game(state, []))
    assert finder.examined == 1
    assert len(finder.prover.solver.solved) == 0
