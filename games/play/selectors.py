"""Reads of matches: the match, who sits where, its moves, and the match as a rules-engine game.

Everything that needs a match's seats, its move list or its `games.rules.Game` reads them
here: the services (under the match's lock), the snapshots, the replays, the AI's task, the
load tool and the benches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from games.play.models import Match, Move, Seat, Status, TerminationReason, Variant
from games.play.snapshot_cache import Snapshot, recent
from games.rules import Game, State


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a signed-in user and/or a guest (by the id in their session)."""

    user_id: int | None = None
    guest_id: str = ""


def match_get(*, match_id: int) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


def match_seats(*, match: Match) -> list[Seat]:
    """The match's seats in seat order, with their users."""
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def seat_of(*, seats: Sequence[Seat], viewer: Viewer) -> int | None:
    """The seat the viewer plays at in this match, or None (a spectator). A person whose seat
    the AI took over at a table is still that seat's person: they see it (their hand, their
    result) though they no longer act for it."""
    for seat in seats:
        if seat.is_ai and not seat.taken_over:
            continue
        if viewer.user_id is not None and seat.user_id == viewer.user_id:
            return seat.index
        if viewer.guest_id and seat.guest_id == viewer.guest_id:
            return seat.index
    return None


def live_matches(*, limit: int = 20) -> QuerySet[Match]:
    """Public matches being played now, newest first."""
    return Match.objects.filter(public=True, status=Status.PLAYING).order_by("-created_at")[
        :limit
    ]


def match_moves(*, match: Match) -> tuple[list[tuple[int, str]], Snapshot | None]:
    """The match's moves as (seat, text) in the order played, and the snapshot they came from
    when this process holds the one of the match's current version (else None: they are read
    from the database). Called under the match's lock, that snapshot is the row's state:
    versions only grow under the lock, and a snapshot is held only once its change committed."""
    held = recent.get(match.pk, version=match.version)
    if held is not None:
        return [(seat, text) for seat, text in held["moves"]], held
    rows = Move.objects.filter(match=match).order_by("ply").values_list("seat", "text")
    return list(rows), None


def match_game(*, match: Match, moves: Sequence[str] | None = None) -> Game | None:
    """The match as a `games.rules.Game`: its deal, every move (`moves`, the texts in order,
    read if not given) and, for a match that is over, the way it ended (a resignation, a loss
    on time, an abort, a draw by agreement; a player who abandoned the game resigned). None
    while the trumps are being chosen (there is no deal yet)."""
    if not match.deal_tpn:
        return None
    start = State.from_tpn(match.deal_tpn, strict=match.variant == Variant.STRICT)
    seeded = not match.from_position
    game = Game(start, seed=match.seed if seeded else None,
                dealer=match.dealer if seeded else None)
    if moves is None:
        moves = [text for _seat, text in match_moves(match=match)[0]]
    for text in moves:
        game.play(text)
    if match.is_over and not game.is_over():
        try:
            if match.termination == TerminationReason.ABORTED:
                game.abort()
            elif match.termination == TerminationReason.AGREEMENT:
                game.agree_draw()
            elif match.termination == TerminationReason.TIMEOUT and match.loser_seat is not None:
                game.timeout(match.loser_seat)
            elif match.loser_seat is not None:
                game.resign(match.loser_seat)  # resignation, abandonment
        except ValueError:
            pass  # the stored end does not fit the rules: keep the moves as they are
    return game
