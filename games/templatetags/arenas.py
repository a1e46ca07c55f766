"""`{% arena_strip match %}`: on the page of an arena's game, the arena's name and link, the
berserk button for its player before their first move, and the tournament socket that keeps
the player pairable and takes them to their next game of the arena as soon as it is paired."""

from __future__ import annotations

from typing import Any

from django import template

from games.play.models import Match, Move
from games.tournaments import selectors
from games.tournaments.views import tournament_labels

register = template.Library()


@register.inclusion_tag("tournaments/partials/match_strip.html", takes_context=True)
def arena_strip(context: dict[str, Any], match: Match) -> dict[str, Any]:
    game = selectors.tournament_game_of_match(match_id=match.pk)
    if game is None:
        return {"game": None}
    user = context["request"].user
    seat = None
    if user.is_authenticated and user.pk in game.user_ids():
        seat = 0 if game.user_a_id == user.pk else 1
    may_berserk = (
        seat is not None and not match.is_over and not game.tournament.is_swiss
        and not match.seats.filter(index=seat, berserk=True).exists()
        and not Move.objects.filter(match=match, seat=seat).exists()
    )
    return {
        "game": game,
        "tournament": game.tournament,
        "url": selectors.tournament_url(game.tournament),
        "may_berserk": may_berserk,
        "csrf_token": context.get("csrf_token"),
        "config": None if seat is None else {
            "socketPath": f"/ws/tournament/{game.tournament.token}/?quiet=1",
            "labels": tournament_labels(),
            "state": None,
        },
    }


@register.inclusion_tag("tournaments/partials/history.html")
def arena_history(user: Any) -> dict[str, Any]:
    """A player's arenas on their profile: rank, players, score and games of each."""
    return {"history": selectors.user_history(user=user)}
