"""What the services of this package share, and nothing outside it imports: the match's lock,
the change that every service ends with, its broadcast, and the AI's turn.

A service locks the match (`match_lock`), checks and writes, then ends with `change_commit`:
the version is bumped, the match saved, its next deadline set when the turn changed, and its
snapshot made from the rows the service holds (a move writes in a statement of its own, then
`change_announce`). After the commit the snapshot is kept in this
process's cache (`games.play.snapshot_cache`) and sent to every socket of the match; the
service returns the `Change` to its caller, whose socket answers from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction

from games.play import checks, errors, events, selectors
from games.play.errors import PlayError
from games.play.game_cache import recent_games
from games.play.models import Match, Seat, Status, Vacation
from games.play.snapshot_cache import Snapshot, recent, snapshot_packed
from games.play.snapshots import snapshot_of
from games.rules import Game, State, Suit, TrumpChoice
from infra.db_threads import off_the_reply_path
from infra.group_send import group_send_all
from infra.tasks import task_send

if TYPE_CHECKING:
    from accounts.models import User


AI_MOVE_TASK = "games.ai_move"
AI_DRAW_TASK = "games.ai_draw_answer"


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits at a seat: a user, a guest (by the id kept in their session) or the AI."""

    user: User | None = None
    guest_id: str = ""
    ai_level: int | None = None

    def __post_init__(self) -> None:
        kinds = (self.user is not None) + bool(self.guest_id) + (self.ai_level is not None)
        if kinds != 1:
            raise ValueError("a player is exactly one of a user, a guest or the AI")


@dataclass(frozen=True, slots=True)
class Change:
    """What a service changed: the match as it now is, its snapshot (what every socket of
    the match is sent) and, for an agreed rematch, the new match."""

    match: Match
    snapshot: Snapshot
    rematch: Match | None = None

    @property
    def version(self) -> int:
        return self.match.version


def match_lock(match_id: int, *, skip_locked: bool = False) -> tuple[Match, list[Seat]]:
    """The match row locked for the transaction, and its seats (they change only under the
    match's lock, so reading them after it is consistent). With `skip_locked`, a match
    another transaction holds is not waited for: it is not found."""
    read = selectors.match_with_seats(match_id=match_id, lock=True, skip_locked=skip_locked)
    if read is None:
        raise PlayError(errors.NOT_FOUND, f"there is no match {match_id}")
    return read


def seat_check(seats: Sequence[Seat], seat: int) -> Seat:
    if not 0 <= seat < len(seats):
        raise PlayError(errors.NOT_A_PLAYER, f"there is no seat {seat} in this match")
    return seats[seat]


def seats_out(match: Match) -> list[int]:
    """The seats that have gone out, first out first."""
    if not match.position_tpn:
        return []
    return list(State.from_tpn(match.position_tpn).out)


def check_not_over(match: Match) -> None:
    if match.is_over:
        raise PlayError(errors.GAME_OVER, "the game is over")


def trump_choice_of(match: Match) -> TrumpChoice:
    return TrumpChoice(
        match.n_players, match.dealer, tuple(Suit.parse(c) for c in match.trumps_chosen)
    )


def change_commit(match: Match, seats: Sequence[Seat], *, now: datetime,
                  moves: Sequence[tuple[int, str]] | None = None,
                  held: Snapshot | None = None, turn_changed: bool = True) -> Change:
    """End a service's change: `change_prepare`, save, and `change_announce`. `moves` are
    the match's moves as (seat, text), if the caller holds them (else read, from the cache
    when it has the locked version), and `held` the snapshot they came from, if any."""
    if moves is None:
        moves, held = selectors.match_moves(match=match)
    change_prepare(match, seats, now=now, turn_changed=turn_changed)
    match.save()
    return change_announce(match, seats, now=now, moves=moves, held=held,
                           turn_changed=turn_changed)


def change_prepare(match: Match, seats: Sequence[Seat], *, now: datetime,
                   turn_changed: bool = True) -> None:
    """Before a change is written: bump the version and set the next deadline (when the turn
    changed; a finished match has none), with the clocks and the turn's news of a
    correspondence game."""
    if turn_changed and match.correspondence and not match.is_over:
        _correspondence_clocks(match, seats, now)
    if turn_changed or match.is_over:
        match.due_at = None if match.is_over else next_due_at(match, seats)
    if turn_changed and match.correspondence and not match.is_over:
        _correspondence_turn_event(match, seats)
    match.version += 1


def change_announce(match: Match, seats: Sequence[Seat], *, now: datetime,
                    moves: Sequence[tuple[int, str]], held: Snapshot | None = None,
                    turn_changed: bool = True, game: Game | None = None) -> Change:
    """Once a change is written: make its snapshot, and after the commit keep and broadcast
    it (and keep `game`, the match's game as of the change, if given) and ask the AI for its
    move if it is to move."""
    snapshot = snapshot_of(match=match, seats=seats, moves=moves, now=now, previous=held)
    transaction.on_commit(lambda: _committed(snapshot))
    if game is not None:
        match_id, deal_tpn = match.pk, match.deal_tpn
        transaction.on_commit(lambda: recent_games.put(match_id, game, deal_tpn=deal_tpn))
    if turn_changed:
        _ai_turn(match, seats)
    _ai_draw_answers(match, seats)
    return Change(match=match, snapshot=snapshot)


def per_move_ms(match: Match) -> int | None:
    """The time per move of a timed correspondence game, in milliseconds."""
    if not match.correspondence or match.clock_initial is None:
        return None
    return match.clock_initial * 1000


def next_due_at(match: Match, seats: Sequence[Seat], *, now: datetime | None = None
                ) -> datetime | None:
    """The match's next deadline (`checks.due_at`, with the reminder of a correspondence
    game's turn)."""
    return checks.due_at(match, seats, now=now, per_move_ms=per_move_ms(match))


def vacation_left_ms(*, user_id: int | None, now: datetime) -> int:
    """How much of the user's current vacation is still ahead (0: none), in milliseconds."""
    if user_id is None:
        return 0
    ends = (Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
            .values_list("ends_at", flat=True).first())
    return 0 if ends is None else int((ends - now).total_seconds() * 1000)


def _correspondence_clocks(match: Match, seats: Sequence[Seat], now: datetime) -> None:
    """A new turn of a timed correspondence game: every clock is full again, the one of the
    seat to act lengthened by what is left of its player's vacation."""
    full = per_move_ms(match)
    if full is None or match.to_move is None:
        return
    for seat in seats:
        clock = full
        if seat.index == match.to_move:
            clock += vacation_left_ms(user_id=seat.user_id, now=now)
        if seat.clock_ms != clock:
            seat.clock_ms = clock
            seat.save(update_fields=["clock_ms"])


def _correspondence_turn_event(match: Match, seats: Sequence[Seat]) -> None:
    if match.to_move is None or match.status not in (Status.TRUMPS, Status.PLAYING):
        return
    mover = seats[match.to_move]
    # A seat the AI has taken over keeps its person, who has left the game: not told.
    if mover.user_id is None or mover.is_ai:
        return
    user_id = mover.user_id
    due = checks.trump_timeout_at(match, seats) or checks.flag_at(match, seats)
    events.turn_started(match_id=match.pk, user_id=user_id, ply=match.ply, due_at=due)


def _committed(snapshot: Snapshot) -> None:
    recent.put(snapshot)
    broadcast(snapshot)


def _ai_turn(match: Match, seats: Sequence[Seat]) -> None:
    """After commit: the AI's move, if it is to move."""
    if match.status == Status.PLAYING and match.to_move is not None and seats[match.to_move].is_ai:
        ai_move_send(match_id=match.pk, ply=match.ply, on_commit=True)


def _ai_draw_answers(match: Match, seats: Sequence[Seat]) -> None:
    """After commit: the AI seats' answers to a standing draw offer, if one waits for them
    (their task does nothing once the game moved on; the next change asks again)."""
    if match.draw_offer_seat is None or match.status != Status.PLAYING:
        return
    awaited = checks.draw_awaited(match.draw_offer_seat, match.draw_accepted,
                                  n_players=match.n_players, out=seats_out(match))
    if any(seats[seat].is_ai for seat in awaited):
        match_id, ply = match.pk, match.ply
        transaction.on_commit(
            lambda: off_the_reply_path(task_send, AI_DRAW_TASK, match_id, ply))


def ai_move_send(*, match_id: int, ply: int, on_commit: bool = False) -> None:
    """Ask the AI for its move at `ply` (its task does nothing if the match moved on)."""
    if on_commit:
        transaction.on_commit(
            lambda: off_the_reply_path(task_send, AI_MOVE_TASK, match_id, ply)
        )
    else:
        task_send(AI_MOVE_TASK, match_id, ply)


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


def broadcast(snapshot: Snapshot) -> None:
    """Tell every socket of the match, in any process, that it changed, with its snapshot;
    each socket renders the view its user may see. A failure is logged, never raised: the
    change is committed, and clients that miss the news catch up on their next `sync` or
    reconnect. On a socket's database thread neither the thread nor the player's reply waits
    for Redis (`infra.group_send`)."""
    group_send_all([(group_name(snapshot["id"]), change_event(snapshot))])


def change_event(snapshot: Snapshot) -> dict[str, Any]:
    """The channel-layer event of a committed change (read by `event_snapshot`)."""
    return {"type": "match.changed", "match_id": snapshot["id"], "version": snapshot["version"],
            "snapshot": snapshot_packed(snapshot)}
