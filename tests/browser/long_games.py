"""Long games for the browser tests of the move list: played through the one door of every
move (`services.move_apply`), with moves chosen by a seeded random walk over the legal ones."""

from __future__ import annotations

import random

from games.play import selectors, services
from games.play.models import Match
from games.play.services import Player


def long_match_create(*, players: list[Player], plies: int, seed: int = 50) -> Match:
    """A duel dealt from `seed` with the trumps chosen, `plies` moves into the game (the
    random walk of this seed is neither finished nor repeated by then)."""
    match = services.match_create(players=players, dealer=1, trumps="SH", seed=seed)
    game = selectors.match_game(match=match)
    assert game is not None
    rng = random.Random(seed)
    for ply in range(plies):
        assert not game.is_over(), f"the walk of seed {seed} ends at ply {ply}"
        seat = game.state.to_move
        move = str(rng.choice(game.legal_moves()))
        services.move_apply(match_id=match.pk, seat=seat, move=move, expected_ply=ply)
        game.play(move)
    match.refresh_from_db()
    return match
