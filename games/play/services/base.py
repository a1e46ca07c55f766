"""What every service shares: the lock, the version bump and broadcast, the follow-up tasks,
the game rebuilt from the stored moves, and the site's timing settings."""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction

from games.play import errors
from games.play.errors import PlayError
from games.play.models import (
    Match,
    Move,
    Seat,
    Status,
    Variant,
)
from games.rules import (
    Game,
    State,
    Suit,
    TrumpChoice,
)
from yourtrumps_site.db_threads import (
    event_loop_of_this_thread,
    log_failure,
    off_the_reply_path,
)

if TYPE_CHECKING:
    from accounts.models import User

from games.play.services.clocks import flag_at

logger = logging.getLogger(__name__)


# Time controls offered (initial seconds, increment seconds); None is the untimed casual game.
TIME_CONTROLS: tuple[tuple[int, int], ...] = ((60, 1), (180, 2), (300, 3), (600, 5))


def trump_choice_seconds() -> int:
    """How long a player has to choose a trump suit before a random free one is given."""
    return int(getattr(settings, "GAMES_TRUMP_CHOICE_SECONDS", 30))


def presence_lease_seconds() -> int:
    """How long an open socket counts as present without renewing its lease."""
    return int(getattr(settings, "GAMES_PRESENCE_LEASE_SECONDS", 45))


def claim_after_seconds() -> int:
    """How long a player must be gone, on their own turn, before the other may claim."""
    return int(getattr(settings, "GAMES_CLAIM_AFTER_SECONDS", 30))


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


def _lock(match_id: int) -> tuple[Match, list[Seat]]:
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise PlayError(errors.NOT_FOUND, f"there is no match {match_id}") from None
    # Seats change only under the match's lock, so reading them after it is consistent.
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    return match, seats


def _seat(seats: list[Seat], seat: int) -> Seat:
    if not 0 <= seat < len(seats):
        raise PlayError(errors.NOT_A_PLAYER, f"there is no seat {seat} in this match")
    return seats[seat]


def _check_not_over(match: Match) -> None:
    if match.is_over:
        raise PlayError(errors.GAME_OVER, "the game is over")


def _trump_choice(match: Match) -> TrumpChoice:
    return TrumpChoice(
        match.n_players, match.dealer, tuple(Suit.parse(c) for c in match.trumps_chosen)
    )


def _touch(match: Match, *, seats: list[Seat] | None = None,
           moves: list[tuple[int, str]] | None = None,
           previous: dict[str, Any] | None = None) -> None:
    """A change the clients must see: bump the version, save, broadcast after commit. A
    caller that changed the turn passes the match's seats, and the match's next deadline is
    set from them. A caller that also holds the moves, as changed, passes them (and the
    snapshot of the version it changed, if it had one): the snapshot is made from them
    instead of being read back after the commit."""
    from games.play.snapshots import snapshot_of

    if seats is not None:
        match.due_at = due_at(match, seats)
    elif match.is_over:
        match.due_at = None
    # Otherwise the turn is unchanged (an offer, a presence), and so is the deadline.
    match.version += 1
    match.save()
    match_id, version = match.pk, match.version
    snapshot = None
    if seats is not None and moves is not None:
        snapshot = snapshot_of(match=match, seats=seats, moves=moves, previous=previous)
    transaction.on_commit(
        lambda: broadcast(match_id=match_id, version=version, snapshot=snapshot)
    )


def broadcast(*, match_id: int, version: int, snapshot: dict[str, Any] | None = None) -> None:
    """Tell every socket of the match that it changed, with the match as it now is (the
    `snapshot` of the change, or read once here, after the commit: `games.play.snapshots`); each
    socket renders the view its user may see.
    A failure is logged, never raised: the change is committed, and clients that miss the
    news catch up on their next `sync` or reconnect."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.play import snapshots

    if snapshot is None:
        try:
            snapshot = snapshots.match_snapshot(match_id=match_id)
        except Exception:
            logger.exception("match %s version %s could not be read back", match_id, version)
    message: dict[str, object] = {"type": "match.changed", "version": version}
    if snapshot is not None:
        snapshots.recent.put(snapshot)
        message = {"type": "match.changed", "version": snapshot["version"],
                   "snapshot": snapshot}
    layer = get_channel_layer()
    if layer is None:
        return
    group = group_name(match_id)
    loop = event_loop_of_this_thread()
    if loop is not None:
        # Called by a socket's database call: the event loop sends it, and neither the
        # database thread nor the player's reply waits for Redis.
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.add_done_callback(log_failure(f"broadcast of match {match_id} version {version}"))
        return

    def send() -> None:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:
            logger.exception("broadcast of match %s version %s failed", match_id, version)

    # Not called inside the `except`: async_to_sync carries the exception being handled into
    # the event loop, and the traceback's cycle would keep this move's whole call stack for
    # the garbage collector.
    if _event_loop_running():  # a thread that runs an event loop (a script, a test)
        thread = threading.Thread(target=send, name=f"broadcast-{match_id}")
        thread.start()
        thread.join(10)
    else:
        send()


def _event_loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


def due_at(match: Match, seats: list[Seat], *, now: datetime | None = None) -> datetime | None:
    """The next instant the clock acts on the match if nobody does: the trump chooser's
    timeout, the mover's flag, or the moment the AI to move counts as late (its task is then
    sent again; once that moment has passed, `now` + the stall time)."""
    if (timeout := trump_timeout_at(match)) is not None:
        return timeout
    late = ai_late_at(match, seats)
    if late is not None and now is not None and late <= now:
        late = now + timedelta(seconds=ai_stall_seconds())
    return min((t for t in (flag_at(match, seats), late) if t is not None), default=None)


def trump_timeout_at(match: Match) -> datetime | None:
    """When the trump chooser's time runs out, while trumps are being chosen."""
    if match.status != Status.TRUMPS or match.turn_started_at is None:
        return None
    return match.turn_started_at + timedelta(seconds=trump_choice_seconds())


def ai_late_at(match: Match, seats: list[Seat]) -> datetime | None:
    """When the AI to move counts as late (its task lost), if the AI is to move."""
    if match.status != Status.PLAYING or match.to_move is None or match.turn_started_at is None:
        return None
    if not seats[match.to_move].is_ai:
        return None
    return match.turn_started_at + timedelta(seconds=ai_stall_seconds())


def _schedule_followups(match: Match, seats: list[Seat]) -> None:
    """After commit: the AI's move, if it is to move."""
    from games.play import tasks

    match_id = match.pk
    if match.status == Status.PLAYING and match.to_move is not None and seats[match.to_move].is_ai:
        ply = match.ply
        transaction.on_commit(
            lambda: off_the_reply_path(tasks.enqueue_ai_move, match_id=match_id, ply=ply)
        )


def match_moves(match: Match) -> tuple[list[tuple[int, str]], dict[str, Any] | None]:
    """The match's moves as (seat, text), in the order played, and the snapshot they came
    from if this process holds the one of the match's current version (a duel's process has
    seen the event of the opponent's move), else None and they are read."""
    from games.play.snapshots import recent

    held = recent.get(match.pk, at_least=match.version)
    # Versions only grow under the match's lock, and a snapshot is held only once its change
    # committed: one of the locked row's version is the state of that row.
    if held is not None and held["version"] == match.version:
        return [(seat, text) for seat, text in held["moves"]], held
    rows = Move.objects.filter(match=match).order_by("ply").values_list("seat", "text")
    return list(rows), None


def match_game_load(match: Match, moves: list[tuple[int, str]] | None = None) -> Game:
    """The match as a rules-engine game: the deal with every stored move (`moves`, read if not
    given) played again."""
    start = State.from_tpn(match.deal_tpn, strict=match.variant == Variant.STRICT)
    seed = None if match.from_position else match.seed
    game = Game(start, seed=seed, dealer=None if seed is None else match.dealer)
    for _seat, text in match_moves(match)[0] if moves is None else moves:
        game.play(text)
    return game


def ai_stall_seconds() -> int:
    """How long the AI may take to answer before its task is sent again."""
    return int(getattr(settings, "GAMES_AI_STALL_SECONDS", 20))
