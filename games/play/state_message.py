"""The `state` message (`games.play.schemas.State`): made here and nowhere else, for the sockets
of a live match, the puzzle board and the replay.

A live match's message is made in two steps. `state_shared` makes, from a snapshot
(`games.play.snapshots`) and without touching the database, everything every viewer of that
version is sent alike: the seats, their clocks and presence, the pile, the moves, the offers,
the result. `state_for` then makes one viewer's message from it: its seat (`you`), the cards it
may see, its legal moves, whether it may offer a draw or claim the victory. A broadcast to a
match's sockets in one process makes the shared part once (`RenderedStates`), and the text of
each distinct viewer once: the spectators of a match are all sent the same bytes.

Which cards a viewer may see is decided by the rules engine alone
(`games.rules.visible_hands`): here the hands are only written out. Whether a clock runs, a
player counts as present, a claim or an abort is possible, a draw may be offered: the pure
checks of `games.play.checks`, the same the services decide with. The words of the view (names
of the AI and of guests, why the game ended) are put in the language active when it runs,
which is the socket's, not the mover's.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from django.utils import timezone, translation

from games.play import checks
from games.play.models import Status, TerminationReason, Variant, player_name
from games.play.schemas import (
    ClockView,
    LastMoveView,
    ResultView,
    SeatView,
    State,
    TrumpChoiceView,
)
from games.play.snapshot_cache import Snapshot
from games.play.snapshots import RATING_KEYS
from games.rules import State as Position
from games.rules import parse_cards, visible_hands
from games.rules.cards import CARD_NAMES, mask_codes
from infra.json_text import json_text

Hands = list[tuple[list[str] | None, int]]
"""Per seat: the cards a viewer may see of its hand (None: no cards dealt yet) and how many
it may not."""


def _ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def _at(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


def _cards(mask: int) -> list[str]:
    return [CARD_NAMES[code] for code in mask_codes(mask)]


# --- the one builder of the shape ---------------------------------------------------------------


def hands_seen(position: Position | None, viewer_seat: int | None, n_players: int) -> Hands:
    """What `viewer_seat` (None: a spectator) may see of every hand of `position`."""
    if position is None:
        return [(None, 0)] * n_players
    known, hidden = visible_hands(position, viewer_seat)
    return [(_cards(mask), count) for mask, count in zip(known, hidden, strict=True)]


def seat_view(*, index: int, name: str, kind: Literal["user", "guest", "ai", "deleted"],
              trump: str | None, hand_size: int, hand: list[str] | None = None, hidden: int = 0,
              bot: bool = False, ai_level: int | None = None, taken_over: bool = False,
              taken_over_ply: int | None = None, clock_ms: int | None = None,
              connected: bool = True, place: int | None = None,
              result: Literal["win", "loss", "draw"] | None = None,
              rating_before: float | None = None, rating_after: float | None = None,
              rating: int | None = None, provisional: bool | None = None,
              rating_delta: int | None = None) -> SeatView:
    """One seat of a state; what a page without players' accounts and clocks (a puzzle, a
    record's replay) does not know is left at its default."""
    return {
        "index": index, "name": name, "kind": kind, "bot": bot, "ai_level": ai_level,
        "taken_over": taken_over, "taken_over_ply": taken_over_ply,
        "trump": trump,  # type: ignore[typeddict-item]  # a suit letter, checked by the schema
        "hand": hand, "hidden": hidden, "hand_size": hand_size, "clock_ms": clock_ms,
        "connected": connected, "place": place, "result": result,
        "rating_before": rating_before, "rating_after": rating_after, "rating": rating,
        "provisional": provisional, "rating_delta": rating_delta,
    }


def state_view(*, id: int, version: int, ply: int,
               status: Literal["trumps", "playing", "finished", "aborted"],
               n_players: int, seats: list[SeatView], pile: list[str],
               moves: Iterable[Sequence[int | str]], now: datetime,
               variant: Literal["standard", "strict"] = "standard", rated: bool = False,
               dealer: int | None = None, clock: ClockView | None = None,
               correspondence: bool = False, you: int | None = None,
               to_move: int | None = None, running: int | None = None,
               legal_moves: list[str] | None = None, take_count: int = 0,
               trump_choice: TrumpChoiceView | None = None,
               last_move: LastMoveView | None = None, draw_offer: int | None = None,
               draw_agreed: list[int] | None = None, draw_awaited: list[int] | None = None,
               can_offer_draw: bool = False, rematch_offer: int | None = None,
               rematch_agreed: list[int] | None = None,
               rematch_awaited: list[int] | None = None, rematch_id: int | None = None,
               can_abort: bool = False, claim_at_ms: int | None = None,
               result: ResultView | None = None) -> State:
    """A whole state; what a page without offers, clocks or a result does not pass is
    left at its default. The pile is bottom card first."""
    return {
        "type": "state", "id": id, "version": version, "ply": ply, "status": status,
        "variant": variant, "rated": rated, "n_players": n_players, "dealer": dealer,
        "clock": clock, "correspondence": correspondence, "you": you, "seats": seats,
        "pile": pile,
        "to_move": to_move, "running": running, "legal_moves": legal_moves or [],
        "take_count": take_count, "trump_choice": trump_choice,
        "moves": [(int(seat), str(text)) for seat, text in moves],
        "last_move": last_move, "draw_offer": draw_offer, "draw_agreed": draw_agreed or [],
        "draw_awaited": draw_awaited or [], "can_offer_draw": can_offer_draw,
        "rematch_offer": rematch_offer, "rematch_agreed": rematch_agreed or [],
        "rematch_awaited": rematch_awaited or [], "rematch_id": rematch_id,
        "can_abort": can_abort, "claim_at_ms": claim_at_ms, "result": result,
        "server_time_ms": int(now.timestamp() * 1000),
    }


def last_move_view(*, ply: int, seat: int, move: str, taken: Iterable[str]) -> LastMoveView:
    return {"ply": ply, "seat": seat, "move": move, "taken": list(taken)}


# --- a live match: the shared part, then each viewer's --------------------------------------------


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


def _place(stored: int | None, position: Position | None, seat: int) -> int | None:
    """A seat's place: the stored one once the match is over; during play, a seat that has
    gone out has the place of its order of going out (the first out, the first place)."""
    if stored is not None or position is None or seat not in position.out:
        return stored
    return position.out.index(seat) + 1


@dataclass(slots=True)
class SharedState:
    """What every viewer of one snapshot is sent alike (`base`: the spectator's message but
    its hands), and what `state_for` needs to make one viewer's message from it."""

    base: State
    position: Position | None
    taken_over: tuple[bool, ...]
    draws_allowed: bool
    claim_at_ms: int | None
    hands: dict[int | None, Hands] = field(default_factory=dict)

    def hands_for(self, viewer_seat: int | None) -> Hands:
        # In the duel every viewer sees the same cards: one computation serves them all.
        key = None if self.base["n_players"] == 2 else viewer_seat
        seen = self.hands.get(key)
        if seen is None:
            seen = self.hands[key] = hands_seen(self.position, key, self.base["n_players"])
        return seen


def state_shared(*, snapshot: Snapshot, now: datetime | None = None) -> SharedState:
    """The part of a live match's state every viewer of `snapshot` is sent alike."""
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
    position = (
        Position.from_tpn(snapshot["position"], strict=snapshot["variant"] == Variant.STRICT,
                          known=snapshot["known"] or None)
        if snapshot["position"] else None
    )
    moves = snapshot["moves"]
    seat_views = [
        seat_view(
            index=facts.index,
            # A seat taken over is named by its person; `taken_over` says the AI plays it.
            name=player_name(ai_level=None if raw.get("taken_over") else raw["ai_level"],
                             username=raw["username"], guest=raw["kind"] == "guest"),
            kind=raw["kind"], bot=bool(raw.get("bot")), ai_level=raw["ai_level"],
            taken_over=bool(raw.get("taken_over")), taken_over_ply=raw.get("taken_over_ply"),
            trump=raw["trump"],
            hand_size=position.hand_size(facts.index) if position is not None else 0,
            clock_ms=checks.remaining_ms(match, facts, now),
            connected=checks.is_present(facts, now),
            place=_place(raw["place"], position, facts.index),
            result=raw["result"], rating_before=raw["rating_before"],
            rating_after=raw["rating_after"],
            **{key: raw.get(key) for key in RATING_KEYS},
        )
        for raw, facts in zip(snapshot["seats"], seats, strict=True)
    ]
    to_move = match.to_move
    trump_choice: TrumpChoiceView | None = None
    if status == Status.TRUMPS:
        chosen = set(snapshot["trumps_chosen"])
        suits: tuple[Literal["C", "D", "H", "S"], ...] = ("C", "D", "H", "S")
        trump_choice = {"chooser": to_move, "free": [s for s in suits if s not in chosen],
                        "deadline_ms": _ms(checks.trump_timeout_at(match, seats))}
    last = None
    if moves:
        last = last_move_view(ply=len(moves), seat=moves[-1][0], move=moves[-1][1],
                              taken=(str(card) for card in parse_cards(snapshot["last_taken"])))
    offer, accepted = snapshot["draw_offer"], snapshot.get("draw_accepted", "")
    rematch_offer = snapshot["rematch_offer"]
    rematch_accepted = snapshot.get("rematch_accepted", "")
    result: ResultView | None = None
    if match.is_over:
        result = {"result": snapshot["result"], "loser": snapshot["loser"],
                  "termination": snapshot["termination"],
                  "reason": str(TerminationReason(snapshot["termination"]).label)}
    claim_at = checks.claim_available_at(match, seats, now,
                                         movers={seat for seat, _text in moves})
    base = state_view(
        id=snapshot["id"], version=snapshot["version"], ply=snapshot["ply"], status=status,
        variant=snapshot["variant"], rated=snapshot["rated"],
        n_players=snapshot["n_players"], dealer=snapshot["dealer"], clock=snapshot["clock"],
        correspondence=match.correspondence, seats=seat_views,
        pile=[str(card) for card in position.pile] if position is not None else [],
        to_move=to_move,
        running=(to_move if snapshot["clock"] is not None and checks.clock_running(match)
                 else None),
        take_count=(position.take_count()
                    if position is not None and status == Status.PLAYING else 0),
        trump_choice=trump_choice, moves=moves, last_move=last, draw_offer=offer,
        draw_agreed=sorted(checks.draw_agreed(offer, accepted)),
        draw_awaited=checks.draw_awaited(offer, accepted, n_players=match.n_players,
                                         out=position.out if position is not None else ()),
        rematch_offer=rematch_offer,
        rematch_agreed=sorted(checks.rematch_agreed(rematch_offer, rematch_accepted)),
        rematch_awaited=checks.rematch_awaited(
            rematch_offer, rematch_accepted,
            people=[s["index"] for s in snapshot["seats"] if s["kind"] != "ai"]),
        rematch_id=snapshot["rematch_id"],
        can_abort=checks.can_abort(match, movers={seat for seat, _text in moves}),
        result=result, now=now,
    )
    return SharedState(
        base=base, position=position,
        taken_over=tuple(bool(s.get("taken_over")) for s in snapshot["seats"]),
        draws_allowed=checks.draws_allowed(match, seats), claim_at_ms=_ms(claim_at),
    )


def state_for(shared: SharedState, viewer_seat: int | None) -> State:
    """One viewer's state (None: a spectator) from the part every viewer shares."""
    base, position = shared.base, shared.position
    message = base.copy()
    message["you"] = viewer_seat
    message["seats"] = [
        {**seat, "hand": hand, "hidden": hidden}
        for seat, (hand, hidden) in zip(base["seats"], shared.hands_for(viewer_seat),
                                        strict=True)
    ]
    taken_over = viewer_seat is not None and shared.taken_over[viewer_seat]
    # A seat the AI took over is the AI's to play, even to its person watching.
    if (position is not None and base["status"] == "playing"
            and viewer_seat is not None and viewer_seat == base["to_move"] and not taken_over):
        message["legal_moves"] = [str(move) for move in position.legal_moves()]
    player = (viewer_seat is not None and not taken_over
              and (position is None or viewer_seat not in position.out))
    message["can_offer_draw"] = player and shared.draws_allowed
    message["claim_at_ms"] = shared.claim_at_ms if base["to_move"] != viewer_seat else None
    return message


def state_message(*, snapshot: Snapshot, viewer_seat: int | None,
                  now: datetime | None = None) -> State:
    """The state message for one seat (None: a spectator), as the board draws it."""
    return state_for(state_shared(snapshot=snapshot, now=now), viewer_seat)


def state_text(message: State) -> str:
    """A state as the socket sends it."""
    return json_text(message)


class RenderedStates:
    """The texts of the states this process sent lately, per match version, language and
    viewer: a broadcast reaches each socket of a match separately, and all but the first of
    them within `REUSE_SECONDS` are sent what was made for the first (clocks and presence are
    as of that instant, and `server_time_ms` says so). A state is made again after that, so a
    `sync` later on has its clocks counted anew."""

    REUSE_SECONDS = 0.1

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        # In the order made, oldest first: one made longer than REUSE_SECONDS ago serves no
        # one again and goes at once, dying young (a server with a thousand games would
        # otherwise hold a thousand of them for the collector to walk, over and over).
        self._items: OrderedDict[tuple[int, int, str],
                                 tuple[float, SharedState, dict[int | None, str]]] = OrderedDict()

    def __len__(self) -> int:
        """How many states (a match's version in a language) are held."""
        return len(self._items)

    def text(self, *, snapshot: Snapshot, viewer_seat: int | None, language: str) -> str:
        """The text of `viewer_seat`'s state of `snapshot` in `language` (activated only to
        make what is not held: most states sent are the text made for another socket)."""
        key = (snapshot["id"], snapshot["version"], language)
        now = time.monotonic()
        held = self._items.get(key)
        if held is None or now - held[0] > self.REUSE_SECONDS:
            with translation.override(language):
                held = (now, state_shared(snapshot=snapshot), {})
            self._items[key] = held
            self._items.move_to_end(key)
            items = self._items
            while len(items) > self._size or now - next(iter(items.values()))[0] > (
                self.REUSE_SECONDS
            ):
                items.popitem(last=False)
        texts = held[2]
        text = texts.get(viewer_seat)
        if text is None:  # the viewer's part holds no words: no language to activate
            text = texts[viewer_seat] = state_text(state_for(held[1], viewer_seat))
        return text


rendered = RenderedStates()
"""This process's: its sockets run on one event loop."""
