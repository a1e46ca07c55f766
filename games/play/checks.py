"""The pure checks of live play: the server's clocks, presence, deadlines and what a seat may
do now.

Each function reads the fields of a match and its seats and nothing else: no query, no write,
no other module of play. They take model rows or any objects with the same fields (a
snapshot's facts, `games.play.state_message`), so the services that change a match and the
view that shows it decide with the same code. The timing settings are declared in
`yourtrumps_site/settings.py`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings

from games.play.models import Status


class MatchFacts(Protocol):
    """What the checks read of a match (a `Match` row has it all)."""

    @property
    def status(self) -> str: ...
    @property
    def n_players(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def turn_started_at(self) -> datetime | None: ...
    @property
    def started_at(self) -> datetime | None: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def correspondence(self) -> bool: ...


class ReminderFacts(MatchFacts, Protocol):
    """A match row, as `due_at` reads it: the turn whose reminder has been sent."""

    @property
    def reminded_turn_at(self) -> datetime | None: ...


class SeatFacts(Protocol):
    """What the checks read of a seat (a `Seat` row has it all)."""

    @property
    def index(self) -> int: ...
    @property
    def is_ai(self) -> bool: ...
    @property
    def clock_ms(self) -> int | None: ...
    @property
    def connections(self) -> int: ...
    @property
    def present_until(self) -> datetime | None: ...
    @property
    def disconnected_at(self) -> datetime | None: ...


# --- clocks ----------------------------------------------------------------------------------


def elapsed_ms(match: MatchFacts, now: datetime) -> int:
    """Milliseconds since the current turn began."""
    if match.turn_started_at is None:
        return 0
    return max(0, int((now - match.turn_started_at).total_seconds() * 1000))


def remaining_ms(match: MatchFacts, seat: SeatFacts, now: datetime) -> int | None:
    """A seat's time left now: it runs only for the seat to move while the game is played
    (and, in a correspondence game, for the seat choosing its trump)."""
    if seat.clock_ms is None:
        return None
    if match.to_move == seat.index and clock_running(match):
        return seat.clock_ms - elapsed_ms(match, now)
    return seat.clock_ms


def clock_running(match: MatchFacts) -> bool:
    """Whether the clock of the seat to act runs: while the game is played, and in a
    correspondence game while trumps are chosen too."""
    return match.status == Status.PLAYING or (
        match.correspondence and match.status == Status.TRUMPS)


def flag_at(match: MatchFacts, seats: Sequence[SeatFacts]) -> datetime | None:
    """The instant the mover's clock reaches zero, if it is running."""
    if match.status != Status.PLAYING or match.to_move is None or match.turn_started_at is None:
        return None
    return _clock_out_at(match, seats)


def _clock_out_at(match: MatchFacts, seats: Sequence[SeatFacts]) -> datetime | None:
    assert match.to_move is not None
    assert match.turn_started_at is not None
    clock = seats[match.to_move].clock_ms
    if clock is None:
        return None
    return match.turn_started_at + timedelta(milliseconds=clock)


def seat_passes_at_flag(match: MatchFacts) -> bool:
    """Whether a mover out of time passes their seat to the AI rather than losing the game:
    at a correspondence table of 3-4, where the others have played for days and go on
    (`takeover_at`). Everywhere else the flag ends the game."""
    return match.correspondence and match.n_players > 2


def mover_out_of_time(match: MatchFacts, seats: Sequence[SeatFacts], now: datetime
                      ) -> int | None:
    """The mover's seat if their time has run out by `now` (the watch may not have looked)
    and that loses them the game (not at a correspondence table: `seat_passes_at_flag`)."""
    if seat_passes_at_flag(match):
        return None
    deadline = flag_at(match, seats)
    if deadline is not None and now >= deadline:
        return match.to_move
    return None


# --- deadlines -------------------------------------------------------------------------------


def trump_timeout_at(match: MatchFacts, seats: Sequence[SeatFacts]) -> datetime | None:
    """When the trump chooser's time runs out, while trumps are being chosen: a live game's
    few seconds, a correspondence game's time per move (none if it has no clock)."""
    if match.status != Status.TRUMPS or match.turn_started_at is None:
        return None
    if match.correspondence:
        return None if match.to_move is None else _clock_out_at(match, seats)
    return match.turn_started_at + timedelta(seconds=settings.GAMES_TRUMP_CHOICE_SECONDS)


def reminder_at(match: MatchFacts, seats: Sequence[SeatFacts], *, per_move_ms: int | None
                ) -> datetime | None:
    """When a quarter of the time per move (`per_move_ms`) is left to act in a timed
    correspondence game, choosing a trump or moving."""
    if not match.correspondence or per_move_ms is None or match.to_move is None:
        return None
    if match.turn_started_at is None or match.status not in (Status.TRUMPS, Status.PLAYING):
        return None
    if seats[match.to_move].is_ai:  # the AI, or a seat it took over from a person who left
        return None
    out = _clock_out_at(match, seats)
    return None if out is None else out - timedelta(milliseconds=per_move_ms // 4)


def silence_claim_at(match: MatchFacts) -> datetime | None:
    """When the other player may claim an untimed correspondence game the mover has left
    unanswered (`GAMES_CORRESPONDENCE_CLAIM_DAYS` after their turn began; while trumps are
    chosen the game may be aborted instead)."""
    if match.status != Status.PLAYING or match.turn_started_at is None:
        return None
    return match.turn_started_at + timedelta(days=settings.GAMES_CORRESPONDENCE_CLAIM_DAYS)


def ai_late_at(match: MatchFacts, seats: Sequence[SeatFacts]) -> datetime | None:
    """When the AI to move counts as late (its task lost), if the AI is to move."""
    if match.status != Status.PLAYING or match.to_move is None or match.turn_started_at is None:
        return None
    if not seats[match.to_move].is_ai:
        return None
    return match.turn_started_at + timedelta(seconds=settings.GAMES_AI_STALL_SECONDS)


def silence_end_at(match: MatchFacts, seats: Sequence[SeatFacts]) -> datetime | None:
    """In an untimed game of one person against the AI, on the person's turn: when the
    person, silent that long (`GAMES_AI_GAME_SILENCE_SECONDS`), loses it by abandonment. A
    game with a clock ends by its flag, a game of people by a claim."""
    if (match.correspondence or match.status != Status.PLAYING or match.to_move is None
            or match.turn_started_at is None):
        return None
    mover = seats[match.to_move]
    if mover.is_ai or mover.clock_ms is not None:
        return None
    if not all(seat.is_ai for seat in seats if seat.index != mover.index):
        return None
    return match.turn_started_at + timedelta(seconds=settings.GAMES_AI_GAME_SILENCE_SECONDS)


def due_at(match: ReminderFacts, seats: Sequence[SeatFacts], *, now: datetime | None = None,
           per_move_ms: int | None = None) -> datetime | None:
    """The next instant the clock acts on the match if nobody does: the reminder of a
    correspondence game's turn (`per_move_ms`: its time per move) until it is sent, the trump
    chooser's timeout, the mover's flag, the moment the AI to move counts as late (its task is
    then sent again; once that moment has passed, `now` + the stall time), a takeover of a
    seat at a table, or the end of a silent untimed game against the AI."""
    remind = (reminder_at(match, seats, per_move_ms=per_move_ms)
              if match.reminded_turn_at != match.turn_started_at else None)
    if (timeout := trump_timeout_at(match, seats)) is not None:
        return timeout if remind is None else min(remind, timeout)
    late = ai_late_at(match, seats)
    if late is not None and now is not None and late <= now:
        late = now + timedelta(seconds=settings.GAMES_AI_STALL_SECONDS)
    # At a correspondence table the flag of a person is their takeover; the AI's flag does
    # nothing (a late AI is sent its task again).
    flag = None if seat_passes_at_flag(match) else flag_at(match, seats)
    return min((t for t in (flag, late, remind, takeover_at(match, seats),
                            silence_end_at(match, seats))
                if t is not None), default=None)


def takeover_at(match: MatchFacts, seats: Sequence[SeatFacts]) -> datetime | None:
    """At a table of 3-4, when the person to move passes their seat to the AI if nothing
    changes meanwhile: `GAMES_TABLE_ABSENCE_SECONDS` after they were last here (but not before
    their turn began), or at an untimed table `GAMES_TABLE_MOVE_LIMIT_SECONDS` into their
    turn, whichever comes first. A present player's "last here" is the end of their presence
    lease: renewing it moves this instant on, so the instant is due exactly when the player
    has really been gone that long. At a correspondence table players come and go: only the
    mover's days per move running out passes the seat (their flag). None in a duel (there
    the game ends by abandonment)."""
    if (match.n_players < 3 or match.status != Status.PLAYING or match.to_move is None
            or match.turn_started_at is None):
        return None
    mover = seats[match.to_move]
    if mover.is_ai:
        return None
    if match.correspondence:
        return _clock_out_at(match, seats)
    moments = []
    if mover.clock_ms is None:
        moments.append(match.turn_started_at
                       + timedelta(seconds=settings.GAMES_TABLE_MOVE_LIMIT_SECONDS))
    if mover.connections > 0:
        gone: datetime | None = mover.present_until  # None: present with no lease to lapse
    else:
        gone = mover.disconnected_at or match.started_at or match.created_at
    if gone is not None:
        absent = gone + timedelta(seconds=settings.GAMES_TABLE_ABSENCE_SECONDS)
        moments.append(max(absent, match.turn_started_at))
    return min(moments, default=None)


# --- presence --------------------------------------------------------------------------------


def is_present(seat: SeatFacts, now: datetime) -> bool:
    """Whether the seat's player has a game socket open (the AI is always there)."""
    if seat.is_ai:
        return True
    if seat.connections <= 0:
        return False
    return seat.present_until is None or seat.present_until > now


def is_watching(seat: SeatFacts, focused: int, now: datetime) -> bool:
    """Whether the seat's player has its game's page in view and focused now (`focused`:
    `Seat.focused`, the count of such sockets), so that they see their turns come."""
    return focused > 0 and not seat.is_ai and is_present(seat, now)


def absent_since(seat: SeatFacts, now: datetime) -> datetime | None:
    """Since when the seat's player has been away, or None if present or never seen."""
    if is_present(seat, now):
        return None
    if seat.connections > 0:
        return seat.present_until  # a lapsed lease: the server holding it died
    return seat.disconnected_at


def claim_available_at(match: MatchFacts, seats: Sequence[SeatFacts], now: datetime, *,
                       movers: Collection[int]) -> datetime | None:
    """When the others may claim victory because the mover has left, or None if they can't:
    the mover is a person with no open game socket, gone a while during their own turn. One
    who has not moved yet (not in `movers`, the seats that have moved) is not claimed
    against: the game may be aborted instead. At a table of 3-4 nobody claims: the AI takes
    the seat over (`takeover_at`). A correspondence game is never claimed for absence: a
    timed one ends by its clock, an untimed one may be claimed after a long silence on the
    mover's turn (`silence_claim_at`), whoever it is."""
    if match.correspondence and match.n_players == 2:
        timed = match.to_move is not None and seats[match.to_move].clock_ms is not None
        return None if timed or match.to_move is None else silence_claim_at(match)
    if match.status != Status.PLAYING or match.to_move is None or match.n_players > 2:
        return None
    mover = seats[match.to_move]
    if is_present(mover, now) or mover.index not in movers:
        return None
    gone_since = absent_since(mover, now) or match.started_at or match.created_at
    start = max(gone_since, match.turn_started_at or gone_since)
    return start + timedelta(seconds=settings.GAMES_CLAIM_AFTER_SECONDS)


# --- what a seat may do ----------------------------------------------------------------------


def can_abort(match: MatchFacts, *, movers: Collection[int]) -> bool:
    """A match may be aborted until every player has made a move (`movers`: the seats that
    have moved)."""
    if match.is_over:
        return False
    if match.status == Status.TRUMPS:
        return True
    return len(set(movers)) < match.n_players


def draws_allowed(match: MatchFacts, seats: Sequence[SeatFacts]) -> bool:
    """Whether a draw may be agreed in this match now, while it is played: in a duel between
    people, or at a table of 3-4 whoever sits there (the AI seats answer for themselves)."""
    if match.status != Status.PLAYING:
        return False
    return match.n_players > 2 or not any(seat.is_ai for seat in seats)


def rematch_agreed(offer: int | None, accepted: str) -> set[int]:
    """The seats that agree to the standing rematch offer: its offerer and those who accepted
    it (`Match.rematch_offer_seat`, `Match.rematch_accepted`, seat digits)."""
    if offer is None:
        return set()
    return {offer, *(int(digit) for digit in accepted)}


def rematch_awaited(offer: int | None, accepted: str, *, people: Collection[int]) -> list[int]:
    """The seats of people (`people`: every seat but the AI's own, a person whose seat the AI
    took over included) whose agreement the rematch still waits for. A rematch seats everyone
    who played, so it is made only when every person agreed (the AI always does)."""
    agreed = rematch_agreed(offer, accepted)
    return [seat for seat in sorted(people) if seat not in agreed]


def draw_agreed(offer: int | None, accepted: str) -> set[int]:
    """The seats that agree to the standing draw offer: its offerer and those who accepted it
    (`Match.draw_accepted`, seat digits)."""
    if offer is None:
        return set()
    return {offer, *(int(digit) for digit in accepted)}


def draw_awaited(offer: int | None, accepted: str, *, n_players: int,
                 out: Collection[int]) -> list[int]:
    """The seats whose answer the standing draw offer still waits for: every seat still
    holding cards that has not agreed. Empty when no offer stands; the draw is agreed when
    an offer stands and nobody is awaited."""
    if offer is None:
        return []
    agreed = draw_agreed(offer, accepted)
    return [seat for seat in range(n_players) if seat not in out and seat not in agreed]
