"""The `state` message: what one seat (or a spectator) of a match is sent, made from its
snapshot (`games.play.snapshots`) without touching the database.

Which cards the viewer may see is decided by the rules engine alone
(`games.rules.visible_hands`): here the hands are only written out. Whether a clock runs, a
player counts as present, a claim or an abort is possible, a draw may be offered: the pure
checks of `games.play.checks`, the same the services decide with. The words of the view (names
of the AI and of guests, why the game ended) are put in the language active when it runs,
which is the socket's, not the mover's. Its fields are pinned by `games.play.schemas.State`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone

from games.play import checks
from games.play.models import Status, TerminationReason, Variant, player_name
from games.play.snapshot_cache import Snapshot
from games.play.snapshots import RATING_KEYS
from games.rules import State, parse_cards, visible_hands
from games.rules.cards import CARD_NAMES, mask_codes


def _ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def _at(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


@dataclass(frozen=True, slots=True)
class _MatchFacts:
    """What the checks read of a match, rebuilt from a snapshot."""

    status: str
    n_players: int
    to_move: int | None
    turn_started_at: datetime | None
    started_at: datetime | None
    created_at: datetime
    correspondence: bool

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.ABORTED)


@dataclass(frozen=True, slots=True)
class _SeatFacts:
    """What the checks read of a seat, rebuilt from a snapshot."""

    index: int
    ai_level: int | None
    clock_ms: int | None
    connections: int
    present_until: datetime | None
    disconnected_at: datetime | None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


def _cards(mask: int) -> list[str]:
    return [CARD_NAMES[code] for code in mask_codes(mask)]


def _place(stored: int | None, state: State | None, seat: int) -> int | None:
    """A seat's place: the stored one once the match is over; during play, a seat that has
    gone out has the place of its order of going out (the first out, the first place)."""
    if stored is not None or state is None or seat not in state.out:
        return stored
    return state.out.index(seat) + 1


def state_message(*, snapshot: Snapshot, viewer_seat: int | None,
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
        correspondence=snapshot.get("correspondence", False),
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
        State.from_tpn(snapshot["position"], strict=snapshot["variant"] == Variant.STRICT,
                       known=snapshot["known"] or None)
        if snapshot["position"] else None
    )
    if state is not None:
        known, hidden = visible_hands(state, viewer_seat)
    moves = snapshot["moves"]
    movers = {seat for seat, _text in moves}
    seat_views = []
    for raw, facts in zip(snapshot["seats"], seats, strict=True):
        seat_views.append(
            {
                "index": facts.index,
                # A seat taken over is named by its person; `taken_over` says the AI plays it.
                "name": player_name(
                    ai_level=None if raw.get("taken_over") else raw["ai_level"],
                    username=raw["username"], guest=raw["kind"] == "guest",
                ),
                "kind": raw["kind"],
                "bot": bool(raw.get("bot")),
                "ai_level": raw["ai_level"],
                "taken_over": bool(raw.get("taken_over")),
                "taken_over_ply": raw.get("taken_over_ply"),
                "trump": raw["trump"],
                "hand": _cards(known[facts.index]) if state is not None else None,
                "hidden": hidden[facts.index] if state is not None else 0,
                "hand_size": state.hand_size(facts.index) if state is not None else 0,
                "clock_ms": checks.remaining_ms(match, facts, now),
                "connected": checks.is_present(facts, now),
                "place": _place(raw["place"], state, facts.index),
                "result": raw["result"],
                "rating_before": raw["rating_before"],
                "rating_after": raw["rating_after"],
                **{key: raw.get(key) for key in RATING_KEYS},
            }
        )
    to_move = match.to_move
    playing = status == Status.PLAYING
    legal: list[str] = []
    take_count = 0
    if state is not None and playing:
        take_count = state.take_count()
        # A seat the AI took over is the AI's to play, even to its person watching.
        if (viewer_seat is not None and viewer_seat == to_move
                and not snapshot["seats"][viewer_seat].get("taken_over")):
            legal = [str(m) for m in state.legal_moves()]
    trump_choice = None
    if status == Status.TRUMPS:
        chosen = set(snapshot["trumps_chosen"])
        deadline = checks.trump_timeout_at(match, seats)
        trump_choice = {
            "chooser": to_move,
            "free": [s for s in "CDHS" if s not in chosen],
            "deadline_ms": _ms(deadline),
        }
    claim_at = checks.claim_available_at(match, seats, now, movers=movers)
    last = None
    if moves:
        last = {"ply": len(moves), "seat": moves[-1][0], "move": moves[-1][1],
                "taken": [str(card) for card in parse_cards(snapshot["last_taken"])]}
    player = (viewer_seat is not None and (state is None or viewer_seat not in state.out)
              and not snapshot["seats"][viewer_seat].get("taken_over"))
    offer, accepted = snapshot["draw_offer"], snapshot.get("draw_accepted", "")
    rematch_offer = snapshot["rematch_offer"]
    rematch_accepted = snapshot.get("rematch_accepted", "")
    out = state.out if state is not None else ()
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
        "correspondence": match.correspondence,
        "you": viewer_seat,
        "seats": seat_views,
        "pile": [str(c) for c in state.pile] if state is not None else [],
        "to_move": to_move,
        "running": (to_move if snapshot["clock"] is not None and checks.clock_running(match)
                    else None),
        "legal_moves": legal,
        "take_count": take_count,
        "trump_choice": trump_choice,
        "moves": moves,
        "last_move": last,
        "draw_offer": offer,
        "draw_agreed": sorted(checks.draw_agreed(offer, accepted)),
        "draw_awaited": checks.draw_awaited(offer, accepted, n_players=match.n_players,
                                            out=out),
        "can_offer_draw": player and checks.draws_allowed(match, seats),
        "rematch_offer": rematch_offer,
        "rematch_agreed": sorted(checks.rematch_agreed(rematch_offer, rematch_accepted)),
        "rematch_awaited": checks.rematch_awaited(
            rematch_offer, rematch_accepted,
            people=[s["index"] for s in snapshot["seats"] if s["kind"] != "ai"]),
        "rematch_id": snapshot["rematch_id"],
        "can_abort": checks.can_abort(match, movers=movers),
        "claim_at_ms": _ms(claim_at) if claim_at and to_move != viewer_seat else None,
        "result": (
            {
                "result": snapshot["result"],
                "loser": snapshot["loser"],
                "termination": snapshot["termination"],
                "reason": str(TerminationReason(snapshot["termination"]).label),
            }
            if match.is_over else None
        ),
        "server_time_ms": _ms(now),
    }
