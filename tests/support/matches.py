"""Matches with some play in them, made through the services, for tests that need one."""

from __future__ import annotations

from games.play import selectors, services
from games.play.models import Match


def moves_played(match: Match, count: int) -> Match:
    """Play the first legal move `count` times (whoever is to move), then the match again."""
    for _ in range(count):
        match.refresh_from_db()
        game = selectors.match_game(match=match)
        assert game is not None, "the match is not dealt yet"
        services.move_apply(match_id=match.pk, seat=game.state.to_move,
                            move=str(game.legal_moves()[0]), expected_ply=game.ply)
    match.refresh_from_db()
    return match
