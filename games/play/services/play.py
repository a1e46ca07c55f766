"""Creating a match, choosing trumps, and moves: `move_apply`, the one door for every move."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.play import checks, errors, selectors
from games.play.errors import PlayError
from games.play.models import (
    Match,
    Move,
    Seat,
    Status,
    TerminationReason,
    Variant,
)
from games.play.services.core import (
    Change,
    Player,
    change_commit,
    check_not_over,
    match_lock,
    seat_check,
    trump_choice_of,
)
from games.play.services.finishing import draw_agree_if_complete, match_finish, match_lose
from games.play.services.takeover import person_check, takeover_if_due
from games.play.time_control import UNTIMED, TimeControl
from games.rules import (
    ALL_CARDS,
    IllegalMoveError,
    InvalidNotationError,
    MoveKind,
    State,
    Suit,
    deal,
    first_dealer,
    format_cards,
)

logger = logging.getLogger(__name__)


def _start_play(match: Match, seats: list[Seat], trumps: Sequence[Suit], now: datetime) -> None:
    state = deal(match.n_players, match.seed, match.dealer, trumps,
                 match.variant == Variant.STRICT)
    match.deal_tpn = match.position_tpn = state.tpn()
    match.position_known = state.known_text()
    for seat in seats:
        seat.trump = trumps[seat.index].letter
        seat.save(update_fields=["trump"])
    match.status = Status.PLAYING
    match.to_move = state.to_move
    match.turn_started_at = now
    match.started_at = now


def trumps_advance(match: Match, seats: list[Seat], now: datetime) -> None:
    """Let AI choosers choose (a random free suit), and deal once everyone has chosen."""
    choice = trump_choice_of(match)
    rng = random.SystemRandom()
    while not choice.done and seats[choice.chooser].is_ai:  # type: ignore[index]
        choice = choice.choose_random(rng)
    match.trumps_chosen = "".join(s.letter for s in choice.chosen)
    if choice.done:
        _start_play(match, seats, choice.trumps(), now)
    else:
        match.to_move = choice.chooser
        match.turn_started_at = now


def match_create(
    *,
    players: Sequence[Player],
    variant: str = Variant.STANDARD,
    rated: bool = False,
    time_control: TimeControl = UNTIMED,
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
    if rated and (any(p.user is None for p in players) or (n == 2 and not time_control.timed)):
        raise ValueError("only games between accounts, timed duels or tables, can be rated")
    clock_initial = time_control.initial
    rng = random.SystemRandom()
    seed = rng.randrange(2**63) if seed is None else seed
    dealer = first_dealer(n, seed) if dealer is None else dealer
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            rated=rated,
            clock_initial=clock_initial,
            clock_increment=time_control.increment,
            correspondence=time_control.correspondence,
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
            match.position_known = state.known_text()
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
            trumps_advance(match, seats, now)
        change_commit(match, seats, now=now, moves=[])
    return match


def match_choose_trump(
    *, match_id: int, seat: int, suit: str, now: datetime | None = None
) -> Change:
    """The seat whose turn it is to choose takes a free suit as its trump."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_lock(match_id)
        seat_check(seats, seat)
        check_not_over(match)
        if match.status != Status.TRUMPS:
            raise PlayError(errors.WRONG_PHASE, "the trumps have already been chosen")
        choice = trump_choice_of(match)
        if choice.chooser != seat:
            raise PlayError(errors.NOT_YOUR_TURN, f"seat {choice.chooser} chooses now")
        try:
            choice = choice.choose(Suit.parse(suit))
        except (ValueError, InvalidNotationError) as error:
            raise PlayError(errors.BAD_TRUMP, str(error)) from None
        match.trumps_chosen = "".join(s.letter for s in choice.chosen)
        trumps_advance(match, seats, now)
        return change_commit(match, seats, now=now, moves=[])


def move_apply(
    *, match_id: int, seat: int, move: str, expected_ply: int, now: datetime | None = None,
    by_ai: bool = False,
) -> Change:
    """Play `move` for `seat`, which must be to move at `expected_ply` (the number of moves
    played so far). A mover whose time has run out loses instead (`game_over`). `by_ai`: the
    AI's task plays it; only it moves a seat the AI has taken over."""
    now = now or timezone.now()
    flagged = passed = False
    with transaction.atomic():
        match, seats = match_lock(match_id)
        mover = seat_check(seats, seat)
        check_not_over(match)
        if not by_ai:
            person_check(mover)
        if match.status != Status.PLAYING:
            raise PlayError(errors.WRONG_PHASE, "the trumps are still being chosen")
        if expected_ply != match.ply:
            raise PlayError(
                errors.STALE_PLY, f"the game is at ply {match.ply}, not {expected_ply}"
            )
        if match.to_move != seat:
            raise PlayError(errors.NOT_YOUR_TURN, f"seat {match.to_move} is to move")
        elapsed = checks.elapsed_ms(match, now)
        moves, _held = selectors.match_moves(match=match)
        out_of_time = mover.clock_ms is not None and mover.clock_ms - elapsed <= 0
        passes = checks.seat_passes_at_flag(match)
        if out_of_time and passes and not mover.is_ai:
            # Out of time at a correspondence table: the AI has the seat from now on, as the
            # watch would have given it (that commits the change).
            passed = takeover_if_due(match, seats, now)
        elif out_of_time and not passes:
            match_lose(match, seats, seat, TerminationReason.TIMEOUT, now)
            flagged = True
        else:  # in time, or the AI late at a correspondence table (it has no seat to pass)
            game = selectors.match_game(match=match, moves=[text for _seat, text in moves])
            assert game is not None  # playing: there is a deal
            pile_before = game.state.pile_codes
            try:
                played = game.play(move)
            except IllegalMoveError as error:
                raise PlayError(errors.ILLEGAL_MOVE, str(error)) from None
            except InvalidNotationError as error:
                raise PlayError(errors.ILLEGAL_MOVE, str(error)) from None
            if mover.clock_ms is not None:
                increment_ms = 0 if mover.berserk else match.clock_increment * 1000
                mover.clock_ms = mover.clock_ms - elapsed + increment_ms
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
            moves.append((seat, str(played)))
            match.position_tpn = game.state.tpn()
            match.position_known = game.state.known_text()
            match.last_taken = (
                format_cards(ALL_CARDS[c] for c in pile_before[-played.count:])
                if played.kind == MoveKind.TAKE else ""
            )
            if (match.draw_offer_seat is not None and not mover.is_ai and seat not in
                    checks.draw_agreed(match.draw_offer_seat, match.draw_accepted)):
                # A person who moves on instead of answering declines the offer; the AI
                # answers it by its own task, whatever moves it makes meanwhile.
                match.draw_offer_seat, match.draw_accepted = None, ""
            outcome = game.outcome()
            match.turn_started_at = now
            if outcome is not None:
                match.to_move = None
                match_finish(match, seats, outcome, outcome.termination.value, now)
            else:
                match.to_move = game.state.to_move
                # An AI seat the offer waited for went out: the others may all agree now.
                draw_agree_if_complete(match, seats, game.state.out, now)
        if not passed:
            change = change_commit(match, seats, now=now, moves=moves)
    if flagged:
        raise PlayError(errors.GAME_OVER, "your time ran out")
    if passed:
        raise PlayError(errors.NOT_ALLOWED, "your time ran out: the AI plays your seat now")
    return change
