"""analyse() marks exactly the moves that change a duel's exact value."""

from __future__ import annotations

from games.ai.analysis import analyse
from games.ai.solver import solve
from games.rules.game import Game
from games.rules.state import State

START = "SH 7C9HAS/KD6HTH 8S 1 -"


def _finish(game: Game) -> Game:
    """Play the game out with value-keeping moves."""
    while not game.is_over():
        game.play(solve(game.state, all_moves=False).moves_text()[0])
    return game


def test_a_move_that_throws_away_a_win_is_reported() -> None:
    best = solve(State.from_tpn(START), all_moves=True)
    assert best.value == 1
    assert 1401 not in best.moves
    game = _finish(Game.from_tpn(START, ["+1"]))
    mistakes = analyse(game)
    first = mistakes[0]
    assert (first.ply, str(first.move), first.value_before) == (0, "+1", 1)
    child = State.from_tpn(START)
    child.apply("+1")
    assert first.value_after == -solve(child).value < 1
    assert {str(m) for m in first.best_moves} == set(best.moves_text())
    assert all(m.ply > 0 for m in mistakes[1:])


def test_a_perfect_game_has_no_mistakes_and_start_plus_moves_works_too() -> None:
    game = _finish(Game.from_tpn(START))
    assert analyse(game) == []
    assert analyse(State.from_tpn(START), game.moves) == []
