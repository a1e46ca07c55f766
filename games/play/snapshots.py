"""A match as of one version: the *snapshot* every socket of the match is sent a view of.

A snapshot is plain data (numbers, strings, lists; times as epoch milliseconds) made once per
change by the service that made it, from the rows it holds under the match's lock, and carried
inside the channel-layer event to every socket of the match in any process. Each socket then
renders the view its user may see (`games.play.state_message`) without touching the database,
so a move costs the same few queries whether two players or two hundred spectators watch it.

A snapshot holds every hand: it stays on the server (the event crosses Redis, never a client).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.play import selectors
from games.play.models import Match, Seat
from games.play.snapshot_cache import Snapshot


def _ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def _seat_kind(seat: Seat) -> str:
    """Who sits there; a seat the AI took over is still its person's (`taken_over` says so)."""
    if seat.is_ai and not seat.taken_over:
        return "ai"
    if seat.user_id is not None:
        return "user"
    return "guest" if seat.guest_id else "deleted"


def match_snapshot(*, match_id: int, now: datetime | None = None) -> Snapshot | None:
    """The match as it is in the database now (three to five queries), or None if gone:
    what a socket sends on connect and on `sync`."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return None
    seats = selectors.match_seats(match=match)
    moves, held = selectors.match_moves(match=match)
    return snapshot_of(match=match, seats=seats, moves=moves, now=now, previous=held)


def snapshot_of(*, match: Match, seats: Sequence[Seat], moves: Sequence[tuple[int, str]],
                now: datetime | None = None, previous: Snapshot | None = None) -> Snapshot:
    """The snapshot of a match whose rows the caller holds: `moves` are (seat, text) by ply.
    Reads only the players' ratings (a rated game, unless `previous`, an earlier snapshot of
    the same game still being played, has them) and the rematch (a game that is over)."""
    ratings = _ratings(match, seats, now or timezone.now(), previous)
    # A rematch can only follow a game that is over.
    rematch = (
        Match.objects.filter(previous=match).values_list("pk", flat=True).first()
        if match.is_over else None
    )
    return {
        "id": match.pk,
        "version": match.version,
        "ply": match.ply,
        "status": match.status,
        "variant": match.variant,
        "rated": match.rated,
        "n_players": match.n_players,
        "dealer": match.dealer,
        "correspondence": match.correspondence,
        "clock": (
            {"initial": match.clock_initial, "increment": match.clock_increment,
             "per_move": match.correspondence}
            if match.timed else None
        ),
        "position": match.position_tpn,
        "known": match.position_known,
        "last_taken": match.last_taken,
        "to_move": match.to_move,
        "trumps_chosen": match.trumps_chosen,
        "created_ms": _ms(match.created_at),
        "started_ms": _ms(match.started_at),
        "turn_started_ms": _ms(match.turn_started_at),
        "draw_offer": match.draw_offer_seat,
        "draw_accepted": match.draw_accepted,
        "rematch_offer": match.rematch_offer_seat,
        "rematch_accepted": match.rematch_accepted,
        "rematch_id": rematch,
        "result": match.result,
        "loser": match.loser_seat,
        "termination": match.termination,
        "moves": [[seat, text] for seat, text in moves],
        "seats": [
            {
                "index": seat.index,
                "kind": _seat_kind(seat),
                "username": seat.user.username if seat.user_id is not None else None,
                "bot": seat.user_id is not None and seat.user.is_bot,
                "ai_level": seat.ai_level,
                "taken_over": seat.taken_over,
                "taken_over_ply": seat.taken_over_ply,
                "trump": seat.trump or None,
                "clock_ms": seat.clock_ms,
                "connections": seat.connections,
                "present_until_ms": _ms(seat.present_until),
                "disconnected_ms": _ms(seat.disconnected_at),
                "place": seat.place,
                "result": seat.result or None,
                "rating_before": seat.rating_before,
                "rating_after": seat.rating_after,
                **ratings.get(seat.index, {}),
            }
            for seat in seats
        ],
    }


RATING_KEYS = ("rating", "provisional", "rating_delta")


def _ratings(match: Match, seats: Sequence[Seat], now: datetime,
             previous: Snapshot | None = None) -> dict[int, dict[str, Any]]:
    """For a rated match: each player's rating (as it stands, or after the game once rated)
    and, at the end, the change. Ratings change only when a game ends, so while this one is
    played those of a `previous` snapshot still hold."""
    if not match.rated:
        return {}
    if (previous is not None and previous["id"] == match.pk and not match.is_over
            and all("rating" in seat for seat in previous["seats"])):
        return {seat["index"]: {key: seat[key] for key in RATING_KEYS}
                for seat in previous["seats"]}
    out: dict[int, dict[str, Any]] = {}
    current = {}
    waiting = [s.user_id for s in seats if s.user_id is not None and s.rating_after is None]
    if waiting:
        from accounts.selectors import rating_get_many

        current = rating_get_many(user_ids=waiting, mode=match.rating_mode, now=now)
    for seat in seats:
        if seat.rating_delta is not None:
            assert seat.rating_after is not None
            out[seat.index] = {
                "rating": round(seat.rating_after),
                "provisional": False,
                "rating_delta": seat.rating_delta,
            }
        elif seat.user_id in current:
            summary = current[seat.user_id]
            out[seat.index] = {"rating": summary.rating, "provisional": summary.provisional,
                               "rating_delta": None}
    return out
