"""The end of a match, shared by every way a game ends (and nothing outside this package):
result, places, frozen clocks, and the ratings of a rated duel or table."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from games.play import checks, events
from games.play.models import (
    Match,
    Result,
    Seat,
    SeatResult,
    Status,
    TerminationReason,
    Variant,
)
from games.play.services.core import seats_out
from games.rules import (
    Outcome,
    Termination,
)
from infra.tasks import task_send_on_commit

PUZZLES_TASK = "puzzles.from_match"


def match_finish(
    match: Match,
    seats: Sequence[Seat],
    outcome: Outcome,
    reason: str,
    now: datetime,
) -> None:
    """Record the end: result, places, frozen clocks, ratings of a rated duel."""
    if match.timed and match.status == Status.PLAYING and match.to_move is not None:
        mover = seats[match.to_move]
        if mover.clock_ms is not None:
            left = mover.clock_ms - checks.elapsed_ms(match, now)
            mover.clock_ms = 0 if reason == TerminationReason.TIMEOUT else max(0, left)
    aborted = reason == TerminationReason.ABORTED
    match.status = Status.ABORTED if aborted else Status.FINISHED
    if aborted:
        match.result = Result.ABORTED
    else:
        match.result = Result.DRAW if outcome.loser is None else Result.DECIDED
    match.loser_seat = outcome.loser
    match.termination = reason
    match.finished_at = now
    match.to_move = None
    match.draw_offer_seat, match.draw_accepted = None, ""
    for seat in seats:
        if aborted:
            seat.place, seat.result = None, SeatResult.NONE
        else:
            seat.place = outcome.place_of(seat.index)
            if seat.taken_over:
                seat.result = SeatResult.LOSS  # they left the table: as a resignation
            elif outcome.loser is None:
                seat.result = SeatResult.DRAW
            elif seat.index == outcome.loser:
                seat.result = SeatResult.LOSS
            else:
                seat.result = SeatResult.WIN
    if match.rated and not aborted:
        if len(seats) == 2:
            _rate(match, seats, outcome, now)
        else:
            _rate_table(match, seats, outcome, now)
    for seat in seats:
        seat.save()
    # The players who were away from the board are told (`games.play.events`).
    events.match_finished(match_id=match.pk)
    if not aborted and len(seats) == 2 and match.variant == Variant.STANDARD:
        # Cut the game's puzzles off the web process, once the end is committed.
        task_send_on_commit(PUZZLES_TASK, match.pk)


def _rate(match: Match, seats: Sequence[Seat], outcome: Outcome, now: datetime) -> None:
    """Rate a finished ranked duel through the accounts service (Glicko-2), in this
    transaction, and keep each player's rating before and after on their seat."""
    from accounts.services import rating_apply_duel_result

    if any(seat.user is None for seat in seats):
        return  # an account deleted mid-game: nobody to rate
    if outcome.loser is None:
        first, second = seats
    else:
        second = seats[outcome.loser]
        first = seats[1 - outcome.loser]
    assert first.user is not None
    assert second.user is not None
    changes = rating_apply_duel_result(
        winner=first.user, loser=second.user, draw=outcome.loser is None,
        mode=match.rating_mode, now=now
    )
    for seat, change in zip((first, second), changes, strict=True):
        seat.rating_before = change.rating_before
        seat.rating_after = change.rating_after
        seat.deviation_before = change.deviation_before
        seat.deviation_after = change.deviation_after


def rating_places(outcome: Outcome, seats: Sequence[Seat]) -> list[int]:
    """The places a table is rated by: the game's own (`Outcome.place_of`), except that the
    players who left (their seats taken over by the AI) come last, as if they had resigned;
    the others keep their order. Competition ranking: shared places share a number."""
    left = [seat.taken_over for seat in seats]
    keys = [(1 if gone else 0, 0 if gone else outcome.place_of(seat.index))
            for seat, gone in zip(seats, left, strict=True)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def _rate_table(match: Match, seats: Sequence[Seat], outcome: Outcome, now: datetime) -> None:
    """Rate a finished rated table on the table rating (`accounts.table_ratings`), in this
    transaction, and keep each player's rating before and after on their seat."""
    from accounts.services import rating_apply_table_result

    if any(seat.user is None for seat in seats):
        return  # an account deleted mid-game: the table is not rated
    changes = rating_apply_table_result(
        users=[seat.user for seat in seats if seat.user is not None],
        places=rating_places(outcome, seats), now=now,
    )
    for seat, change in zip(seats, changes, strict=True):
        seat.rating_before = change.rating_before
        seat.rating_after = change.rating_after
        seat.deviation_before = change.deviation_before
        seat.deviation_after = change.deviation_after


def match_lose(match: Match, seats: Sequence[Seat], loser: int, reason: str,
               now: datetime) -> None:
    """End the match with `loser` losing on time or by resignation (RULES: with 3-4 players
    those still holding cards share the places between the ones out and the loser)."""
    termination = Termination.TIMEOUT if reason == TerminationReason.TIMEOUT else (
        Termination.RESIGNATION
    )
    outcome = Outcome.lost_by(termination, match.n_players, seats_out(match), loser)
    match_finish(match, seats, outcome, reason, now)


def draw_agree_if_complete(match: Match, seats: Sequence[Seat], out: Sequence[int],
                           now: datetime) -> bool:
    """End the match drawn by agreement if a draw offer stands and every seat still holding
    cards (not in `out`) agrees: those out keep their places, the others share the rest. A
    mover whose time ran out before it loses on time instead. Returns whether it ended."""
    if match.draw_offer_seat is None or checks.draw_awaited(
            match.draw_offer_seat, match.draw_accepted, n_players=match.n_players, out=out):
        return False
    if (loser := checks.mover_out_of_time(match, seats, now)) is not None:
        match_lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        return True
    outcome = Outcome.drawn(Termination.AGREEMENT, match.n_players, list(out))
    match_finish(match, seats, outcome, TerminationReason.AGREEMENT, now)
    return True
