"""Reads of matches: who sits where, and the view of a match that a seat (or a spectator)
may see. The view is what the board draws; it includes the legal moves of the seat to move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games import services
from games.models import Match, Move, Seat, Status, Variant
from games.rules import State


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a signed-in user and/or a guest (by the id in their session)."""

    user_id: int | None = None
    guest_id: str = ""


def match_get(*, match_id: int) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


def match_seats(*, match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def seat_of(*, seats: list[Seat], viewer: Viewer) -> int | None:
    """The seat the viewer plays at in this match, or None (a spectator)."""
    for seat in seats:
        if seat.is_ai:
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


def _ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def _seat_kind(seat: Seat) -> str:
    if seat.is_ai:
        return "ai"
    if seat.user_id is not None:
        return "user"
    return "guest" if seat.guest_id else "deleted"


def match_view(*, match_id: int, viewer_seat: int | None, now: datetime | None = None
               ) -> dict[str, Any] | None:
    """The full state of the match for one seat (None: a spectator), as the client gets it."""
    match = match_get(match_id=match_id)
    if match is None:
        return None
    return match_view_of(match=match, seats=match_seats(match=match), viewer_seat=viewer_seat,
                         now=now)


def _ratings(match: Match, seats: list[Seat], now: datetime) -> dict[int, dict[str, Any]]:
    """For a rated match: each player's rating (as it stands, or after the game once rated)
    and, at the end, the change."""
    if not match.rated:
        return {}
    out: dict[int, dict[str, Any]] = {}
    current = {}
    waiting = [s.user_id for s in seats if s.user_id is not None and s.rating_after is None]
    if waiting:
        from accounts.selectors import rating_get_many

        current = rating_get_many(user_ids=waiting, now=now)
    for seat in seats:
        if seat.rating_after is not None and seat.rating_before is not None:
            out[seat.index] = {
                "rating": round(seat.rating_after),
                "provisional": False,
                "rating_delta": round(seat.rating_after) - round(seat.rating_before),
            }
        elif seat.user_id in current:
            summary = current[seat.user_id]
            out[seat.index] = {"rating": summary.rating, "provisional": summary.provisional,
                               "rating_delta": None}
    return out


def match_view_of(*, match: Match, seats: list[Seat], viewer_seat: int | None,
                  now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    state = (
        State.from_tpn(match.position_tpn, strict=match.variant == Variant.STRICT)
        if match.position_tpn else None
    )
    duel = match.n_players == 2
    moves = list(Move.objects.filter(match=match).order_by("ply").values_list("seat", "text"))
    ratings = _ratings(match, seats, now)
    seat_views = []
    for seat in seats:
        hand: list[str] | None = None
        hidden = 0
        if state is not None:
            cards = [str(c) for c in state.hand(seat.index)]
            if duel or seat.index == viewer_seat:
                hand = cards
            else:
                # 3-4 players: only the cards everyone knows this seat holds are shown.
                known = state.known_mask(seat.index)
                hand = [str(c) for c in state.hand(seat.index) if known >> c.code & 1]
                hidden = len(cards) - len(hand)
        seat_views.append(
            {
                "index": seat.index,
                "name": seat.display_name,
                "kind": _seat_kind(seat),
                "ai_level": seat.ai_level,
                "trump": seat.trump or None,
                "hand": hand,
                "hidden": hidden,
                "hand_size": state.hand_size(seat.index) if state is not None else 0,
                "clock_ms": services.remaining_ms(match, seat, now),
                "connected": services.is_present(seat, now),
                "place": seat.place,
                "result": seat.result or None,
                "rating_before": seat.rating_before,
                "rating_after": seat.rating_after,
                **ratings.get(seat.index, {}),
            }
        )
    to_move = match.to_move
    legal: list[str] = []
    take_count = 0
    if state is not None and match.status == Status.PLAYING:
        take_count = state.take_count()
        if viewer_seat is not None and viewer_seat == to_move:
            legal = [str(m) for m in state.legal_moves()]
    trump_choice = None
    if match.status == Status.TRUMPS:
        chosen = set(match.trumps_chosen)
        trump_choice = {
            "chooser": to_move,
            "free": [s for s in "CDHS" if s not in chosen],
            "deadline_ms": _ms(match.turn_started_at + timedelta(
                seconds=services.trump_choice_seconds())) if match.turn_started_at else None,
        }
    claim_at = services.claim_available_at(match, seats, now)
    last = None
    if moves:
        last = {"ply": len(moves), "seat": moves[-1][0], "move": moves[-1][1]}
    rematch = Match.objects.filter(previous=match).values_list("pk", flat=True).first()
    return {
        "type": "state",
        "id": match.pk,
        "version": match.version,
        "ply": match.ply,
        "status": match.status,
        "variant": match.variant,
        "rated": match.rated,
        "n_players": match.n_players,
        "dealer": match.dealer,
        "clock": (
            {"initial": match.clock_initial, "increment": match.clock_increment}
            if match.timed else None
        ),
        "you": viewer_seat,
        "seats": seat_views,
        "pile": [str(c) for c in state.pile] if state is not None else [],
        "to_move": to_move,
        "running": to_move if match.timed and match.status == Status.PLAYING else None,
        "legal_moves": legal,
        "take_count": take_count,
        "trump_choice": trump_choice,
        "moves": [[seat, text] for seat, text in moves],
        "last_move": last,
        "draw_offer": match.draw_offer_seat,
        "rematch_offer": match.rematch_offer_seat,
        "rematch_id": rematch,
        "can_abort": services.can_abort(match),
        "claim_at_ms": _ms(claim_at) if claim_at and to_move != viewer_seat else None,
        "result": (
            {
                "result": match.result,
                "loser": match.loser_seat,
                "termination": match.termination,
                "reason": match.get_termination_display(),
            }
            if match.is_over else None
        ),
        "server_time_ms": _ms(now),
    }
