"""The strongest level never throws away the value of a solved endgame."""

from __future__ import annotations

import random

from games.ai import STRONGEST, choose_code
from games.ai.endgames import load_endgames
from games.rules.game import Game
from games.rules.state import State


def _cards(tpn: str) -> int:
    state = State.from_tpn(tpn)
    return state.hand_size(0) + state.hand_size(1) + len(state.pile_codes)


SMALL = [e for e in load_endgames() if _cards(e.tpn) <= 8]


def test_the_strongest_level_keeps_the_value_of_every_small_endgame() -> None:
    """(All sizes up to 10 cards: ``python -m games.ai.bench endgames``.)"""
    assert len(SMALL) >= 50
    for endgame in SMALL:
        code = choose_code(State.from_tpn(endgame.tpn), STRONGEST, movetime=1.0)
        assert code in endgame.moves, endgame.tpn


def test_a_won_endgame_is_won_to_the_end_against_any_defence() -> None:
    rng = random.Random(4)
    for endgame in SMALL:
        if endgame.value != 1:
            continue
        game = Game.from_tpn(endgame.tpn)
        winner = game.state.to_move
        while not game.is_over():
            if game.state.to_move == winner:
                code = choose_code(game, STRONGEST, movetime=1.0)
            else:
                code = rng.choice(game.state.legal_move_codes())
            game.play(game.state.legal_moves()[game.state.legal_move_codes().index(code)])
        outcome = game.outcome()
        assert outcome is not None, endgame.tpn
        assert outcome.loser is not None, endgame.tpn
        assert outcome.loser != winner, endgame.tpn
