"""Following a line as the player plays it (``games.puzzles.solving``), without the database:
an interchangeable card swapped through the rest of the line, and the end where the swap
cannot be followed."""

from __future__ import annotations

import pytest

from games.puzzles.solving import PuzzleMoveError, puzzle_follow, puzzle_line

# A line written by hand (the mechanics, not a proof): 7C and 8C are interchangeable at the
# start; the defender takes the one led, gives it back on 9D, and the player beats it with
# the other. Played with 8C first, that last beat would be 7C on 8C: not a move.
TPN = "SH 7C8C9DJS/TD6C - 0 -"
LINE = [
    {"move": "7C", "player": True, "accepted": ["7C", "8C"]},
    {"move": "+1", "player": False, "accepted": ["+1"]},
    {"move": "9D", "player": True, "accepted": ["9D"]},
    {"move": "TD-7C", "player": False, "accepted": ["TD-7C"]},
    {"move": "8C-JS", "player": True, "accepted": ["8C-JS"]},
]


def test_the_line_as_stored_is_solved_and_ends_the_game():
    progress = puzzle_line(tpn=TPN, solution=LINE)
    assert progress.outcome == "solved"
    assert [ply.move for ply in progress.plies] == [step["move"] for step in LINE]
    assert progress.plies[1].taken == ("7C",)
    assert progress.plies[-1].state.is_over()


def test_the_other_card_is_swapped_through_the_replies():
    progress = puzzle_follow(tpn=TPN, solution=LINE, moves=["8C"])
    assert progress.outcome == "playing"
    assert progress.plies[-1].taken == ("8C",)
    progress = puzzle_follow(tpn=TPN, solution=LINE, moves=["8C", "9D"])
    assert progress.plies[-1].move == "TD-8C"
    # 7C cannot beat 8C: the line cannot go on, and the player's proven moves solved it.
    assert progress.outcome == "solved"
    assert progress.new_from == 2


def test_a_wrong_move_ends_the_play_and_nothing_follows_it():
    progress = puzzle_follow(tpn=TPN, solution=LINE, moves=["9D"])
    assert (progress.outcome, progress.wrong, progress.correct) == ("failed", "9D", "7C")
    assert [ply.move for ply in progress.plies] == ["7C"]
    with pytest.raises(PuzzleMoveError) as refused:
        puzzle_follow(tpn=TPN, solution=LINE, moves=["9D", "9D"])
    assert refused.value.code == "puzzle_over"
    with pytest.raises(PuzzleMoveError) as refused:
        puzzle_follow(tpn=TPN, solution=LINE, moves=["7C", "9D", "8C-JS", "6C"])
    assert refused.value.code == "puzzle_over"


@pytest.mark.parametrize(("moves", "code"), [(["7H"], "illegal_move"), (["7C-8C"], "illegal_move"),
                                             (["zz"], "bad_move"), (["+0"], "bad_move")])
def test_moves_that_are_no_moves_there_are_refused(moves, code):
    with pytest.raises(PuzzleMoveError) as refused:
        puzzle_follow(tpn=TPN, solution=LINE, moves=moves)
    assert refused.value.code == code
