"""The replay's positions as the game page's board draws them: one `state` message
(`games.play.schemas.State`) per ply, made by the match socket's builder
(`games.play.state_message`), so that a replay looks exactly like the game page.

A replay's state leaves out the moves before it: every ply's list would make the data grow as
the square of the game's length, and the page has them once, in the positions. The page puts
them in (and its own version) before it hands a state to the board.
"""

from __future__ import annotations

from typing import Any, Literal

from django.utils import timezone

from games.play.schemas import ClockView, ResultView, SeatView, State
from games.play.state_message import last_move_view, seat_view, state_view


def _split(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def _kind(kind: str) -> Literal["user", "guest", "ai", "deleted"]:
    # A record's player is known by a name only, as a guest is.
    return kind if kind in ("user", "ai", "deleted") else "guest"  # type: ignore[return-value]


def _taken(positions: list[dict[str, Any]], ply: int) -> list[str]:
    """The cards a take at `ply` brought into its mover's hand (those the viewer may see)."""
    position = positions[ply]
    if not position["move"].startswith("+"):
        return []
    seat = position["seat"]
    before = set(_split(positions[ply - 1]["hands"][seat][0]))
    return [card for card in _split(position["hands"][seat][0]) if card not in before]


def replay_states(data: dict[str, Any]) -> list[State]:
    """The board's state at every ply of a replay's data (`games.replays.selectors`)."""
    positions: list[dict[str, Any]] = data["positions"]
    result = data["result"]
    result_view: ResultView | None = None
    if result is not None:
        result_view = {"result": result["result"], "loser": result["loser"],
                       "termination": result["termination"], "reason": result["reason"]}
    clock: ClockView | None = data["clock"]
    now = timezone.now()
    states = []
    for ply, position in enumerate(positions):
        over = ply == len(positions) - 1 and not data["live"] and result is not None
        ended = over or position["to_move"] is None
        status: Literal["trumps", "playing", "finished", "aborted"] = "playing"
        if ended:
            aborted = result is not None and result["result"] == "aborted"
            status = "aborted" if aborted else "finished"
        seats: list[SeatView] = []
        for index, seat in enumerate(data["seats"]):
            cards, hidden = position["hands"][index]
            hand = _split(cards)
            seats.append(seat_view(
                index=index, name=seat["name"], kind=_kind(seat["kind"]), trump=seat["trump"],
                hand=hand, hidden=hidden, hand_size=len(hand) + hidden,
                clock_ms=position["clocks"][index] if position["clocks"] else None,
                place=seat["place"] if over else None,
                result=seat["result"] if over else None,
                rating_before=seat["rating_before"], rating_after=seat["rating_after"]))
        states.append(state_view(
            id=data["id"] or 0, version=ply, ply=ply, status=status,
            n_players=data["n_players"], variant=data["variant"], rated=data["rated"],
            clock=clock, seats=seats, pile=_split(position["pile"]),
            to_move=None if ended else position["to_move"], moves=(),
            last_move=(last_move_view(ply=ply, seat=position["seat"], move=position["move"],
                                      taken=_taken(positions, ply)) if ply else None),
            result=result_view if over else None, now=now))
    return states
