"""A match as of one version, read once, and the view of it that one seat may see.

Every change of a match is read back once, after its commit, into a *snapshot*: plain data
(numbers, strings, lists; times as epoch milliseconds) that travels inside the channel-layer
event to every socket of the match, in any process. Each socket then renders the view its user
may see (`snapshot_view`) without touching the database, so a move costs the same few queries
whether two players or two hundred spectators watch it.

A snapshot holds every hand: it stays on the server (the event crosses Redis, never a
client). `snapshot_view` is where a 3-4 player game's hidden cards are left out, and the words
of the view (names of the AI and of guests, why the game ended) are put in the language active
when it runs, which is the socket's, not the mover's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils import timezone

from games.play import selectors, services
from games.play.models import Match, Seat, Status, TerminationReason, Variant, player_name
from games.rules import State

Snapshot = dict[str, Any]


def _ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def _at(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


def _seat_kind(seat: Seat) -> str:
    if seat.is_ai:
        return "ai"
    if seat.user_id is not None:
        return "user"
    return "guest" if seat.guest_id else "deleted"


# --- reading one ---------------------------------------------------------------------------


def match_snapshot(*, match_id: int, now: datetime | None = None) -> Snapshot | None:
    """The match as it is in the database now (three to five queries), or None if gone."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return None
    seats = selectors.match_seats(match=match)
    moves, _held = services.match_moves(match)
    return snapshot_of(match=match, seats=seats, moves=moves, now=now)


def snapshot_of(*, match: Match, seats: list[Seat], moves: list[tuple[int, str]],
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
        "clock": (
            {"initial": match.clock_initial, "increment": match.clock_increment}
            if match.timed else None
        ),
        "position": match.position_tpn,
        "to_move": match.to_move,
        "trumps_chosen": match.trumps_chosen,
        "created_ms": _ms(match.created_at),
        "started_ms": _ms(match.started_at),
        "turn_started_ms": _ms(match.turn_started_at),
        "draw_offer": match.draw_offer_seat,
        "rematch_offer": match.rematch_offer_seat,
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
                "ai_level": seat.ai_level,
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


_RATING_KEYS = ("rating", "provisional", "rating_delta")


def _ratings(match: Match, seats: list[Seat], now: datetime,
             previous: Snapshot | None = None) -> dict[int, dict[str, Any]]:
    """For a rated match: each player's rating (as it stands, or after the game once rated)
    and, at the end, the change. Ratings change only when a game ends, so while this one is
    played those of a `previous` snapshot still hold."""
    if not match.rated:
        return {}
    if (previous is not None and previous["id"] == match.pk and not match.is_over
            and all("rating" in seat for seat in previous["seats"])):
        return {seat["index"]: {key: seat[key] for key in _RATING_KEYS}
                for seat in previous["seats"]}
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


# --- the view of one seat -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _MatchFacts:
    """What the clock and presence rules read of a match, rebuilt from a snapshot."""

    status: str
    n_players: int
    to_move: int | None
    turn_started_at: datetime | None
    started_at: datetime | None
    created_at: datetime

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.ABORTED)


@dataclass(frozen=True, slots=True)
class _SeatFacts:
    """What the clock and presence rules read of a seat, rebuilt from a snapshot."""

    index: int
    ai_level: int | None
    clock_ms: int | None
    connections: int
    present_until: datetime | None
    disconnected_at: datetime | None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


def snapshot_view(*, snapshot: Snapshot, viewer_seat: int | None,
                  now: datetime | None = None) -> dict[str, Any]:
    """The state message for one seat (None: a spectator), as the board draws it."""
    now = now or timezone.now()
    status = snapshot["status"]
    match = _MatchFacts(
        status=status,
        n_players=snapshot["n_players"],
        to_move=snapshot["to_move"],
        turn_started_at=_at(snapshot["turn_started_ms"]),
        started_at=_at(snapshot["started_ms"]),
        created_at=_at(snapshot["created_ms"]) or now,
    )
    seats = [
        _SeatFacts(
            index=s["index"], ai_level=s["ai_level"], clock_ms=s["clock_ms"],
            connections=s["connections"], present_until=_at(s["present_until_ms"]),
            disconnected_at=_at(s["disconnected_ms"]),
        )
        for s in snapshot["seats"]
    ]
    state = (
        State.from_tpn(snapshot["position"], strict=snapshot["variant"] == Variant.STRICT)
        if snapshot["position"] else None
    )
    duel = snapshot["n_players"] == 2
    moves = snapshot["moves"]
    movers = {seat for seat, _text in moves}
    seat_views = []
    for raw, facts in zip(snapshot["seats"], seats, strict=True):
        hand: list[str] | None = None
        hidden = 0
        if state is not None:
            cards = [str(c) for c in state.hand(facts.index)]
            if duel or facts.index == viewer_seat:
                hand = cards
            else:
                # 3-4 players: only the cards everyone knows this seat holds are shown.
                known = state.known_mask(facts.index)
                hand = [str(c) for c in state.hand(facts.index) if known >> c.code & 1]
                hidden = len(cards) - len(hand)
        seat_views.append(
            {
                "index": facts.index,
                "name": player_name(ai_level=raw["ai_level"], username=raw["username"],
                                    guest=raw["kind"] == "guest"),
                "kind": raw["kind"],
                "ai_level": raw["ai_level"],
                "trump": raw["trump"],
                "hand": hand,
                "hidden": hidden,
                "hand_size": state.hand_size(facts.index) if state is not None else 0,
                "clock_ms": services.remaining_ms(match, facts, now),
                "connected": services.is_present(facts, now),
                "place": raw["place"],
                "result": raw["result"],
                "rating_before": raw["rating_before"],
                "rating_after": raw["rating_after"],
                **{key: raw[key] for key in _RATING_KEYS if key in raw},
            }
        )
    to_move = match.to_move
    legal: list[str] = []
    take_count = 0
    if state is not None and status == Status.PLAYING:
        take_count = state.take_count()
        if viewer_seat is not None and viewer_seat == to_move:
            legal = [str(m) for m in state.legal_moves()]
    trump_choice = None
    if status == Status.TRUMPS:
        chosen = set(snapshot["trumps_chosen"])
        trump_choice = {
            "chooser": to_move,
            "free": [s for s in "CDHS" if s not in chosen],
            "deadline_ms": _ms(match.turn_started_at + timedelta(
                seconds=services.trump_choice_seconds())) if match.turn_started_at else None,
        }
    mover_has_moved = to_move is not None and to_move in movers
    claim_at = services.claim_available_at(match, seats, now, mover_has_moved=mover_has_moved)
    last = None
    if moves:
        last = {"ply": len(moves), "seat": moves[-1][0], "move": moves[-1][1]}
    over = match.is_over
    return {
        "type": "state",
        "id": snapshot["id"],
        "version": snapshot["version"],
        "ply": snapshot["ply"],
        "status": status,
        "variant": snapshot["variant"],
        "rated": snapshot["rated"],
        "n_players": snapshot["n_players"],
        "dealer": snapshot["dealer"],
        "clock": snapshot["clock"],
        "you": viewer_seat,
        "seats": seat_views,
        "pile": [str(c) for c in state.pile] if state is not None else [],
        "to_move": to_move,
        "running": (
            to_move if snapshot["clock"] is not None and status == Status.PLAYING else None
        ),
        "legal_moves": legal,
        "take_count": take_count,
        "trump_choice": trump_choice,
        "moves": moves,
        "last_move": last,
        "draw_offer": snapshot["draw_offer"],
        "rematch_offer": snapshot["rematch_offer"],
        "rematch_id": snapshot["rematch_id"],
        "can_abort": services.can_abort(match, movers=movers),
        "claim_at_ms": _ms(claim_at) if claim_at and to_move != viewer_seat else None,
        "result": (
            {
                "result": snapshot["result"],
                "loser": snapshot["loser"],
                "termination": snapshot["termination"],
                "reason": str(TerminationReason(snapshot["termination"]).label),
            }
            if over else None
        ),
        "server_time_ms": _ms(now),
    }


# --- the newest snapshot each process has seen ----------------------------------------------


class SnapshotCache:
    """The newest snapshot of recently changed matches, per process: the service that made a
    change reads its snapshot once (after commit) and the socket that asked for the change
    answers from it. Never a substitute for the database on connect or `sync`."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[int, Snapshot] = OrderedDict()

    def put(self, snapshot: Snapshot) -> None:
        match_id = snapshot["id"]
        with self._lock:
            held = self._items.get(match_id)
            if held is not None and held["version"] > snapshot["version"]:
                return
            self._items[match_id] = snapshot
            self._items.move_to_end(match_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def get(self, match_id: int, *, at_least: int) -> Snapshot | None:
        """The held snapshot of the match if it is of version `at_least` or newer."""
        with self._lock:
            held = self._items.get(match_id)
        return held if held is not None and held["version"] >= at_least else None


recent = SnapshotCache()
