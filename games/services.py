"""The one door for every change to a match (HackSoft style: keyword-only, typed).

Every service runs in one transaction with the match row locked (`select_for_update`), checks
what the actor may do, writes, and only on commit broadcasts the new version to the group
`match-<id>` and schedules what follows (the AI's move, the flag, the trump-choice timeout).
A refusal raises `games.errors.PlayError` with a stable code and changes nothing.

Time is injected: every service takes `now` (default `timezone.now()`), so the tests of clocks,
claims and timeouts pass instants instead of sleeping. Clocks are the server's: the mover's
remaining time is their stored `clock_ms` minus the time since `turn_started_at`.

Services that act for a seat take its index; the consumer or view maps a user or guest to it
(`games.selectors.seat_of`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import errors
from games.errors import PlayError
from games.models import (
    Match,
    Move,
    Result,
    Seat,
    SeatResult,
    Status,
    TerminationReason,
    Variant,
)
from games.rules import (
    Game,
    IllegalMoveError,
    InvalidNotationError,
    Outcome,
    State,
    Suit,
    Termination,
    TrumpChoice,
    deal,
    first_dealer,
)

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

# Time controls offered (initial seconds, increment seconds); None is the untimed casual game.
TIME_CONTROLS: tuple[tuple[int, int], ...] = ((60, 1), (180, 2), (300, 3), (600, 5))


def trump_choice_seconds() -> int:
    """How long a player has to choose a trump suit before a random free one is given."""
    return int(getattr(settings, "GAMES_TRUMP_CHOICE_SECONDS", 30))


def presence_lease_seconds() -> int:
    """How long an open socket counts as present without renewing its lease."""
    return int(getattr(settings, "GAMES_PRESENCE_LEASE_SECONDS", 45))


def is_present(seat: Seat, now: datetime) -> bool:
    """Whether the seat's player has a game socket open (the AI is always there)."""
    if seat.is_ai:
        return True
    if seat.connections <= 0:
        return False
    return seat.present_until is None or seat.present_until > now


def absent_since(seat: Seat, now: datetime) -> datetime | None:
    """Since when the seat's player has been away, or None if present or never seen."""
    if is_present(seat, now):
        return None
    if seat.connections > 0:
        return seat.present_until  # a lapsed lease: the server holding it died
    return seat.disconnected_at


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


# --- helpers ----------------------------------------------------------------------------------


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


def _elapsed_ms(match: Match, now: datetime) -> int:
    if match.turn_started_at is None:
        return 0
    return max(0, int((now - match.turn_started_at).total_seconds() * 1000))


def remaining_ms(match: Match, seat: Seat, now: datetime) -> int | None:
    """A seat's time left now: it runs only for the seat to move while the game is played."""
    if seat.clock_ms is None:
        return None
    if match.status == Status.PLAYING and match.to_move == seat.index:
        return seat.clock_ms - _elapsed_ms(match, now)
    return seat.clock_ms


def flag_at(match: Match, seats: list[Seat]) -> datetime | None:
    """The instant the mover's clock reaches zero, if it is running."""
    if match.status != Status.PLAYING or match.to_move is None or match.turn_started_at is None:
        return None
    clock = seats[match.to_move].clock_ms
    if clock is None:
        return None
    return match.turn_started_at + timedelta(milliseconds=clock)


def claim_available_at(
    match: Match, seats: list[Seat], now: datetime | None = None
) -> datetime | None:
    """When the others may claim victory because the mover has left, or None if they can't:
    the mover is a person with no open game socket, gone a while during their own turn. One
    who has not moved yet is not claimed against: the game may be aborted instead."""
    now = now or timezone.now()
    if match.status != Status.PLAYING or match.to_move is None:
        return None
    mover = seats[match.to_move]
    if is_present(mover, now):
        return None
    if not Move.objects.filter(match=match, seat=mover.index).exists():
        return None
    gone_since = absent_since(mover, now) or match.started_at or match.created_at
    start = max(gone_since, match.turn_started_at or gone_since)
    return start + timedelta(seconds=claim_after_seconds())


def _trump_choice(match: Match) -> TrumpChoice:
    return TrumpChoice(
        match.n_players, match.dealer, tuple(Suit.parse(c) for c in match.trumps_chosen)
    )


def _touch(match: Match) -> None:
    """A change the clients must see: bump the version, save, broadcast after commit."""
    match.version += 1
    match.save()
    match_id, version = match.pk, match.version
    transaction.on_commit(lambda: broadcast(match_id=match_id, version=version))


def broadcast(*, match_id: int, version: int) -> None:
    """Tell every socket of the match that it changed; each builds the view its user may see.
    A failure is logged, never raised: the change is committed, and clients that miss the
    news catch up on their next `sync` or reconnect."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "match.changed", "version": version}

    def send() -> None:
        try:
            async_to_sync(layer.group_send)(group_name(match_id), message)
        except Exception:
            logger.exception("broadcast of match %s version %s failed", match_id, version)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send()
    else:  # a thread that runs an event loop (a script, a test) cannot block on it
        thread = threading.Thread(target=send, name=f"broadcast-{match_id}")
        thread.start()
        thread.join(10)


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


def _schedule_followups(match: Match, seats: list[Seat]) -> None:
    """After commit: the AI's move, the flag at the mover's zero, the trump-choice timeout."""
    from games import tasks

    match_id = match.pk
    if match.status == Status.PLAYING and match.to_move is not None:
        ply = match.ply
        if seats[match.to_move].is_ai:
            transaction.on_commit(lambda: tasks.enqueue_ai_move(match_id=match_id, ply=ply))
        deadline = flag_at(match, seats)
        if deadline is not None:
            transaction.on_commit(
                lambda: tasks.schedule_flag(match_id=match_id, ply=ply, at=deadline)
            )
    elif match.status == Status.TRUMPS and match.turn_started_at is not None:
        chosen = len(match.trumps_chosen)
        at = match.turn_started_at + timedelta(seconds=trump_choice_seconds())
        transaction.on_commit(
            lambda: tasks.schedule_trump_timeout(match_id=match_id, chosen=chosen, at=at)
        )


def _load_game(match: Match) -> Game:
    start = State.from_tpn(match.deal_tpn, strict=match.variant == Variant.STRICT)
    seed = None if match.from_position else match.seed
    game = Game(start, seed=seed, dealer=None if seed is None else match.dealer)
    for text in Move.objects.filter(match=match).order_by("ply").values_list("text", flat=True):
        game.play(text)
    return game


def _start_play(match: Match, seats: list[Seat], trumps: Sequence[Suit], now: datetime) -> None:
    state = deal(match.n_players, match.seed, match.dealer, trumps,
                 match.variant == Variant.STRICT)
    match.deal_tpn = match.position_tpn = state.tpn()
    for seat in seats:
        seat.trump = trumps[seat.index].letter
        seat.save(update_fields=["trump"])
    match.status = Status.PLAYING
    match.to_move = state.to_move
    match.turn_started_at = now
    match.started_at = now


def _advance_trumps(match: Match, seats: list[Seat], now: datetime) -> None:
    """Let AI choosers choose (a random free suit), and deal once everyone has chosen."""
    choice = _trump_choice(match)
    rng = random.SystemRandom()
    while not choice.done and seats[choice.chooser].is_ai:  # type: ignore[index]
        choice = choice.choose_random(rng)
    match.trumps_chosen = "".join(s.letter for s in choice.chosen)
    if choice.done:
        _start_play(match, seats, choice.trumps(), now)
    else:
        match.to_move = choice.chooser
        match.turn_started_at = now


def _finish(
    match: Match,
    seats: list[Seat],
    outcome: Outcome,
    reason: str,
    now: datetime,
) -> None:
    """Record the end: result, places, frozen clocks, ratings of a rated duel."""
    if match.timed and match.status == Status.PLAYING and match.to_move is not None:
        mover = seats[match.to_move]
        if mover.clock_ms is not None:
            left = mover.clock_ms - _elapsed_ms(match, now)
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
    match.draw_offer_seat = None
    for seat in seats:
        if aborted:
            seat.place, seat.result = None, SeatResult.NONE
        else:
            seat.place = outcome.place_of(seat.index)
            if outcome.loser is None:
                seat.result = SeatResult.DRAW
            elif seat.index == outcome.loser:
                seat.result = SeatResult.LOSS
            else:
                seat.result = SeatResult.WIN
    if match.rated and not aborted and len(seats) == 2:
        _rate(match, seats, outcome, now)
    for seat in seats:
        seat.save()


def _rate(match: Match, seats: list[Seat], outcome: Outcome, now: datetime) -> None:
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
        winner=first.user, loser=second.user, draw=outcome.loser is None, now=now
    )
    for seat, change in zip((first, second), changes, strict=True):
        seat.rating_before = change.rating_before
        seat.rating_after = change.rating_after
        seat.deviation_before = change.deviation_before
        seat.deviation_after = change.deviation_after


def _current_out(match: Match) -> list[int]:
    if not match.position_tpn:
        return []
    return list(State.from_tpn(match.position_tpn).out)


def _lose(match: Match, seats: list[Seat], loser: int, reason: str, now: datetime) -> None:
    termination = Termination.TIMEOUT if reason == TerminationReason.TIMEOUT else (
        Termination.RESIGNATION
    )
    outcome = Outcome.lost_by(termination, match.n_players, _current_out(match), loser)
    _finish(match, seats, outcome, reason, now)


# --- creating a match -------------------------------------------------------------------------


def match_create(
    *,
    players: Sequence[Player],
    variant: str = Variant.STANDARD,
    rated: bool = False,
    clock_initial: int | None = None,
    clock_increment: int = 0,
    public: bool = True,
    seed: int | None = None,
    dealer: int | None = None,
    trumps: str | None = None,
    start_tpn: str | None = None,
    previous: Match | None = None,
    now: datetime | None = None,
) -> Match:
    """A new match. The first dealer is random unless given; with `trumps` ("SH") the choice
    of trumps is skipped, otherwise the players choose in turn. `start_tpn` starts from a
    crafted position instead of a deal (lessons, puzzles, tests)."""
    now = now or timezone.now()
    n = len(players)
    if n not in (2, 3, 4):
        raise ValueError(f"Svoi Kozyri is played by 2, 3 or 4 players, not {n}")
    if variant not in Variant.values:
        raise ValueError(f"unknown variant {variant!r}")
    if rated and (n != 2 or any(p.user is None for p in players) or clock_initial is None):
        raise ValueError("only a timed duel between two accounts can be rated")
    if clock_initial is not None and clock_initial <= 0:
        raise ValueError("the initial time must be positive")
    rng = random.SystemRandom()
    seed = rng.randrange(2**63) if seed is None else seed
    dealer = first_dealer(n, seed) if dealer is None else dealer
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            rated=rated,
            clock_initial=clock_initial,
            clock_increment=clock_increment,
            public=public,
            n_players=n,
            seed=seed,
            dealer=dealer,
            status=Status.TRUMPS,
            to_move=(dealer + 1) % n,
            turn_started_at=now,
            previous=previous,
        )
        seats = [
            Seat.objects.create(
                match=match,
                index=i,
                user=p.user,
                guest_id=p.guest_id,
                ai_level=p.ai_level,
                clock_ms=None if clock_initial is None else clock_initial * 1000,
            )
            for i, p in enumerate(players)
        ]
        if start_tpn is not None:
            state = State.from_tpn(start_tpn, strict=variant == Variant.STRICT)
            if state.n_players != n:
                raise ValueError(f"the position is for {state.n_players} players, not {n}")
            match.deal_tpn = match.position_tpn = state.tpn()
            match.from_position = True
            order = [(dealer + 1 + i) % n for i in range(n)]
            match.trumps_chosen = "".join(state.trump(s).letter for s in order)
            for seat in seats:
                seat.trump = state.trump(seat.index).letter
                seat.save(update_fields=["trump"])
            match.status = Status.PLAYING
            match.to_move = state.to_move
            match.started_at = now
        elif trumps is not None:
            suits = tuple(Suit.parse(c) for c in trumps)
            if len(suits) != n or len(set(suits)) != n:
                raise ValueError(f"trumps {trumps!r} do not fit {n} players")
            # Record them in the order of choosing, as if chosen from seat dealer + 1 on.
            order = [(dealer + 1 + i) % n for i in range(n)]
            match.trumps_chosen = "".join(suits[s].letter for s in order)
            _start_play(match, seats, suits, now)
        else:
            _advance_trumps(match, seats, now)
        _touch(match)
        _schedule_followups(match, seats)
    return match


def match_choose_trump(
    *, match_id: int, seat: int, suit: str, now: datetime | None = None
) -> Match:
    """The seat whose turn it is to choose takes a free suit as its trump."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        if match.status != Status.TRUMPS:
            raise PlayError(errors.WRONG_PHASE, "the trumps have already been chosen")
        choice = _trump_choice(match)
        if choice.chooser != seat:
            raise PlayError(errors.NOT_YOUR_TURN, f"seat {choice.chooser} chooses now")
        try:
            choice = choice.choose(Suit.parse(suit))
        except (ValueError, InvalidNotationError) as error:
            raise PlayError(errors.BAD_TRUMP, str(error)) from None
        match.trumps_chosen = "".join(s.letter for s in choice.chosen)
        _advance_trumps(match, seats, now)
        _touch(match)
        _schedule_followups(match, seats)
    return match


def match_trump_timeout(
    *, match_id: int, chosen: int, now: datetime | None = None
) -> datetime | None:
    """A chooser who did not choose in time gets a random free suit. `chosen` is how many
    suits had been chosen when the timeout was scheduled: later choices make it void.
    Returns the deadline if it has not come yet (the caller tries again then)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        if match.status != Status.TRUMPS or len(match.trumps_chosen) != chosen:
            return None
        assert match.turn_started_at is not None
        deadline = match.turn_started_at + timedelta(seconds=trump_choice_seconds())
        if now < deadline:
            return deadline
        choice = _trump_choice(match).choose_random(random.SystemRandom())
        match.trumps_chosen = "".join(s.letter for s in choice.chosen)
        _advance_trumps(match, seats, now)
        _touch(match)
        _schedule_followups(match, seats)
    return None


# --- moves and clocks -------------------------------------------------------------------------


def move_apply(
    *, match_id: int, seat: int, move: str, expected_ply: int, now: datetime | None = None
) -> Match:
    """Play `move` for `seat`, which must be to move at `expected_ply` (the number of moves
    played so far). A mover whose time has run out loses instead (`game_over`)."""
    now = now or timezone.now()
    flagged = False
    with transaction.atomic():
        match, seats = _lock(match_id)
        mover = _seat(seats, seat)
        _check_not_over(match)
        if match.status != Status.PLAYING:
            raise PlayError(errors.WRONG_PHASE, "the trumps are still being chosen")
        if expected_ply != match.ply:
            raise PlayError(
                errors.STALE_PLY, f"the game is at ply {match.ply}, not {expected_ply}"
            )
        if match.to_move != seat:
            raise PlayError(errors.NOT_YOUR_TURN, f"seat {match.to_move} is to move")
        elapsed = _elapsed_ms(match, now)
        if mover.clock_ms is not None and mover.clock_ms - elapsed <= 0:
            _lose(match, seats, seat, TerminationReason.TIMEOUT, now)
            flagged = True
        else:
            game = _load_game(match)
            try:
                played = game.play(move)
            except IllegalMoveError as error:
                raise PlayError(errors.ILLEGAL_MOVE, str(error)) from None
            except InvalidNotationError as error:
                raise PlayError(errors.ILLEGAL_MOVE, str(error)) from None
            if mover.clock_ms is not None:
                mover.clock_ms = mover.clock_ms - elapsed + match.clock_increment * 1000
                mover.save(update_fields=["clock_ms"])
            match.ply += 1
            Move.objects.create(
                match=match,
                ply=match.ply,
                seat=seat,
                text=str(played),
                time_spent_ms=elapsed,
                clocks_after=[s.clock_ms for s in seats] if match.timed else None,
                played_at=now,
            )
            match.position_tpn = game.state.tpn()
            if match.draw_offer_seat is not None and match.draw_offer_seat != seat:
                match.draw_offer_seat = None  # moving on declines the offer
            outcome = game.outcome()
            match.turn_started_at = now
            if outcome is not None:
                match.to_move = None
                _finish(match, seats, outcome, outcome.termination.value, now)
            else:
                match.to_move = game.state.to_move
        _touch(match)
        _schedule_followups(match, seats)
    if flagged:
        raise PlayError(errors.GAME_OVER, "your time ran out")
    return match


def match_flag(*, match_id: int, ply: int, now: datetime | None = None) -> datetime | None:
    """At the flag moment: if the game is still at `ply` and the mover's time is out, the
    mover loses on time. Returns the deadline if it has not come yet (try again then)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        if match.status != Status.PLAYING or match.ply != ply:
            return None
        deadline = flag_at(match, seats)
        if deadline is None:
            return None
        if now < deadline:
            return deadline
        assert match.to_move is not None
        _lose(match, seats, match.to_move, TerminationReason.TIMEOUT, now)
        _touch(match)
    return None


# --- the other ends ---------------------------------------------------------------------------


def match_resign(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """The seat resigns and loses (at any moment of play, on either player's turn)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        if match.status != Status.PLAYING:
            raise PlayError(errors.WRONG_PHASE, "the game has not started: abort it instead")
        if seat in _current_out(match):
            raise PlayError(errors.NOT_ALLOWED, "you have gone out already")
        if (remaining := _mover_time_out(match, seats, now)) is not None:
            _lose(match, seats, remaining, TerminationReason.TIMEOUT, now)
        else:
            _lose(match, seats, seat, TerminationReason.RESIGNATION, now)
        _touch(match)
    return match


def _mover_time_out(match: Match, seats: list[Seat], now: datetime) -> int | None:
    """The mover's seat if their time has already run out (the flag task may be late)."""
    deadline = flag_at(match, seats)
    if deadline is not None and now >= deadline:
        return match.to_move
    return None


def can_abort(match: Match) -> bool:
    """A match may be aborted until every player has made a move."""
    if match.is_over:
        return False
    if match.status == Status.TRUMPS:
        return True
    movers = set(Move.objects.filter(match=match).values_list("seat", flat=True).distinct())
    return len(movers) < match.n_players


def match_abort(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """End the match without a result (no rating change): allowed until each has moved."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        if not can_abort(match):
            raise PlayError(errors.CANNOT_ABORT, "every player has moved: resign instead")
        _finish(match, seats, Outcome.aborted(match.n_players), TerminationReason.ABORTED, now)
        _touch(match)
    return match


def _check_draw_allowed(match: Match, seats: list[Seat]) -> None:
    _check_not_over(match)
    if match.status != Status.PLAYING:
        raise PlayError(errors.WRONG_PHASE, "the game has not started")
    if match.n_players != 2 or any(s.is_ai for s in seats):
        raise PlayError(errors.NOT_ALLOWED, "draws are agreed only between two players")


def match_draw_offer(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """Offer a draw; if the other player has already offered one, the draw is agreed."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is not None and match.draw_offer_seat != seat:
            _agree_draw(match, seats, now)
        else:
            match.draw_offer_seat = seat
        _touch(match)
    return match


def _agree_draw(match: Match, seats: list[Seat], now: datetime) -> None:
    if (loser := _mover_time_out(match, seats, now)) is not None:
        _lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        return
    outcome = Outcome.drawn(Termination.REPETITION, match.n_players, _current_out(match))
    _finish(match, seats, outcome, TerminationReason.AGREEMENT, now)


def match_draw_accept(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """Accept the other player's standing draw offer: the game is drawn."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is None or match.draw_offer_seat == seat:
            raise PlayError(errors.NO_DRAW_OFFER, "the other player has not offered a draw")
        _agree_draw(match, seats, now)
        _touch(match)
    return match


def match_draw_decline(*, match_id: int, seat: int) -> Match:
    """Decline the other player's draw offer (or take back one's own)."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_draw_allowed(match, seats)
        if match.draw_offer_seat is None:
            raise PlayError(errors.NO_DRAW_OFFER, "there is no draw offer")
        match.draw_offer_seat = None
        _touch(match)
    return match


def match_claim_victory(*, match_id: int, seat: int, now: datetime | None = None) -> Match:
    """Win because the mover has been gone (no open socket) for a while on their turn."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        _check_not_over(match)
        at = claim_available_at(match, seats, now)
        if at is None or match.to_move == seat:
            raise PlayError(errors.CANNOT_CLAIM, "your opponent is not away on their turn")
        if now < at:
            seconds = (at - now).total_seconds()
            raise PlayError(errors.CANNOT_CLAIM, f"you may claim in {seconds:.0f} s")
        assert match.to_move is not None
        loser = match.to_move
        if _mover_time_out(match, seats, now) is not None:
            _lose(match, seats, loser, TerminationReason.TIMEOUT, now)
        else:
            outcome = Outcome.lost_by(
                Termination.RESIGNATION, match.n_players, _current_out(match), loser
            )
            _finish(match, seats, outcome, TerminationReason.ABANDONMENT, now)
        _touch(match)
    return match


def ai_stall_seconds() -> int:
    """How long the AI may take to answer before its task is sent again."""
    return int(getattr(settings, "GAMES_AI_STALL_SECONDS", 20))


def match_nudge_ai(*, match_id: int, now: datetime | None = None) -> bool:
    """If the AI has been to move for too long (its task lost with a broker or a worker),
    send its task again; the task is idempotent, so a duplicate does no harm. A mover whose
    time is out loses now, whatever became of the flag task. Called when a client asks for
    the state. Returns whether an AI task was sent."""
    from games import tasks

    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id, status=Status.PLAYING).first()
    if match is None or match.to_move is None or match.turn_started_at is None:
        return False
    deadline = flag_at(match, list(Seat.objects.filter(match=match).order_by("index")))
    if deadline is not None and now >= deadline:
        # The flag task is late or lost too: decide the flag now.
        match_flag(match_id=match_id, ply=match.ply, now=now)
        return False
    if now - match.turn_started_at < timedelta(seconds=ai_stall_seconds()):
        return False
    if not Seat.objects.filter(match=match, index=match.to_move, ai_level__isnull=False).exists():
        return False
    logger.warning("match %s: the AI's move at ply %s is late; sending its task again",
                   match_id, match.ply)
    tasks.enqueue_ai_move(match_id=match_id, ply=match.ply)
    return True


# --- presence ---------------------------------------------------------------------------------


def seat_presence_change(
    *, match_id: int, seat: int, connected: bool, now: datetime | None = None
) -> None:
    """A game socket of the seat's player opened or closed (counts sockets, not people)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        row = _seat(seats, seat)
        was_present = is_present(row, now)
        if connected:
            if row.connections > 0 and not was_present:
                row.connections = 0  # a count left behind by a server that died
            row.connections += 1
            row.present_until = now + timedelta(seconds=presence_lease_seconds())
        else:
            row.connections = max(0, row.connections - 1)
            if row.connections == 0:
                row.disconnected_at = now
        row.save(update_fields=["connections", "disconnected_at", "present_until"])
        if was_present != is_present(row, now) and not match.is_over:
            _touch(match)  # the others' claim countdown starts or stops


def seat_presence_renew(*, match_id: int, seat: int, now: datetime | None = None) -> None:
    """An open socket renews its seat's presence lease (no lock: it changes nothing else)."""
    now = now or timezone.now()
    Seat.objects.filter(match_id=match_id, index=seat, connections__gt=0).update(
        present_until=now + timedelta(seconds=presence_lease_seconds())
    )


# --- rematch ----------------------------------------------------------------------------------


def next_dealer(match: Match) -> int:
    """The loser of the last game deals; after a draw or an abort the deal passes to the left."""
    if match.loser_seat is not None:
        return match.loser_seat
    return (match.dealer + 1) % match.n_players


def match_rematch(*, match_id: int, seat: int, now: datetime | None = None) -> Match | None:
    """Offer (or accept) a rematch of a finished match. When every other person has offered
    too (the AI always accepts), the new match is created and returned; else None."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = _lock(match_id)
        _seat(seats, seat)
        if not match.is_over:
            raise PlayError(errors.GAME_NOT_OVER, "the game is still on")
        existing = Match.objects.filter(previous=match).first()
        if existing is not None:
            return existing
        others = [s for s in seats if s.index != seat and not s.is_ai]
        if others and match.rematch_offer_seat in (None, seat):
            match.rematch_offer_seat = seat
            _touch(match)
            return None
        players = [
            Player(user=s.user, guest_id=s.guest_id, ai_level=s.ai_level) for s in seats
        ]
        if any(s.user is None and not s.guest_id and not s.is_ai for s in seats):
            raise PlayError(errors.NOT_ALLOWED, "a player of this match no longer exists")
        new = match_create(
            players=players,
            variant=match.variant,
            rated=match.rated,
            clock_initial=match.clock_initial,
            clock_increment=match.clock_increment,
            public=match.public,
            dealer=next_dealer(match),
            previous=match,
            now=now,
        )
        match.rematch_offer_seat = None
        _touch(match)
    return new
