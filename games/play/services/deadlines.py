"""What the clock makes happen when nobody acts: the mover's flag, a trump choice's timeout,
the AI's task sent again when the AI is late, at a table of 3-4 the AI taking over the seat
of a person who left (`takeover`), the end of an untimed game against the AI left silent on
the person's turn (`GAMES_AI_GAME_SILENCE_SECONDS`), and the reminder of a correspondence
game's turn when a quarter of its time is left (`games.play.events.time_running_low`).

Every change of turn writes the match's next such instant (`Match.due_at`, from
`checks.due_at`). `deadlines_enforce`, run a few times a second by the deadline watch
(`games.play.deadline_watch`), finds the matches whose instant has come with one indexed query and
enforces each under its lock; a client's `sync` enforces its own match's at once. Nothing is
scheduled per move, and a deadline cannot be lost with a broker or a worker: it is a column.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import checks, events
from games.play.errors import PlayError
from games.play.models import Match, Seat, TerminationReason
from games.play.services.core import (
    ai_move_send,
    change_commit,
    match_lock,
    next_due_at,
    per_move_ms,
    trump_choice_of,
)
from games.play.services.finishing import match_lose
from games.play.services.play import trumps_advance
from games.play.services.takeover import takeover_if_due

logger = logging.getLogger(__name__)


def match_deadline_enforce(*, match_id: int, now: datetime | None = None) -> None:
    """If the match's deadline has come: a chooser out of time gets a random free suit, a
    mover out of time loses, a late AI's task is sent again (it is idempotent). Otherwise,
    or if the match is gone, nothing: one cheap query."""
    now = now or timezone.now()
    if Match.objects.filter(pk=match_id, due_at__lte=now).exists():
        _enforce(match_id, now)


def deadlines_enforce(*, now: datetime | None = None, limit: int = 500) -> int:
    """Enforce every match whose deadline has come (the most overdue first, at most `limit`);
    return how many were due.

    Every worker's watch runs this at once, on the same list in the same order: a match
    another watch (or a move) holds at this moment is passed over, not waited for, so that
    in a burst of flags (an arena's games of one time control, started together) the watches
    share the work instead of queueing behind each other's locks one match at a time. A
    match passed over and still due is taken on the next look."""
    now = now or timezone.now()
    due = list(
        Match.objects.filter(due_at__lte=now).order_by("due_at").values_list("pk", flat=True)[
            :limit
        ]
    )
    for match_id in due:
        _enforce(match_id, now, skip_locked=True)
    return len(due)


def _enforce(match_id: int, now: datetime, *, skip_locked: bool = False) -> None:
    with transaction.atomic():
        try:
            match, seats = match_lock(match_id, skip_locked=skip_locked)
        except PlayError:  # deleted meanwhile, or (skip_locked) held by another
            return
        if match.due_at is None or now < match.due_at:
            return  # someone acted meanwhile and set the next deadline
        if (_trump_time_out(match, seats, now) or _flag_fall(match, seats, now)
                or takeover_if_due(match, seats, now) or _silence_end(match, seats, now)):
            return
        _resend_late_ai(match, seats, now)
        _remind(match, seats, now)
        # Nothing more is due now: keep the next instant (no client needs to see it).
        match.due_at = next_due_at(match, seats, now=now)
        match.save(update_fields=["due_at", "reminded_turn_at"])


def _trump_time_out(match: Match, seats: list[Seat], now: datetime) -> bool:
    timeout = checks.trump_timeout_at(match, seats)
    if timeout is None or now < timeout:
        return False
    choice = trump_choice_of(match).choose_random(random.SystemRandom())
    match.trumps_chosen = "".join(s.letter for s in choice.chosen)
    trumps_advance(match, seats, now)
    change_commit(match, seats, now=now, moves=[])
    return True


def _flag_fall(match: Match, seats: list[Seat], now: datetime) -> bool:
    loser = checks.mover_out_of_time(match, seats, now)
    if loser is None:
        return False
    match_lose(match, seats, loser, TerminationReason.TIMEOUT, now)
    change_commit(match, seats, now=now)
    return True


def _silence_end(match: Match, seats: list[Seat], now: datetime) -> bool:
    at = checks.silence_end_at(match, seats)
    if at is None or now < at:
        return False
    assert match.to_move is not None
    match_lose(match, seats, match.to_move, TerminationReason.ABANDONMENT, now)
    change_commit(match, seats, now=now)
    return True


def _resend_late_ai(match: Match, seats: list[Seat], now: datetime) -> None:
    late = checks.ai_late_at(match, seats)
    if late is None or now < late:
        return
    logger.warning("match %s: the AI's move at ply %s is late; sending its task again",
                   match.pk, match.ply)
    ai_move_send(match_id=match.pk, ply=match.ply, on_commit=True)


def _remind(match: Match, seats: list[Seat], now: datetime) -> None:
    """Once per turn: tell the player to act that a quarter of their time is left."""
    remind = checks.reminder_at(match, seats, per_move_ms=per_move_ms(match))
    if remind is None or now < remind or match.reminded_turn_at == match.turn_started_at:
        return
    assert match.to_move is not None
    match.reminded_turn_at = match.turn_started_at
    user_id = seats[match.to_move].user_id
    deadline = checks.trump_timeout_at(match, seats) or checks.flag_at(match, seats)
    if user_id is not None and deadline is not None:
        events.time_running_low(match_id=match.pk, user_id=user_id, ply=match.ply,
                                due_at=deadline)
