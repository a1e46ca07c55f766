"""Creating a match, choosing trumps, and moves: `move_apply`, the one door for every move."""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from games.play import checks, errors, selectors
from games.play.errors import PlayError
from games.play.game_cache import recent_games
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
    change_announce,
    change_commit,
    change_prepare,
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
    Game,
    IllegalMoveError,
    InvalidNotationError,
    MoveKind,
    State,
    Suit,
    deal,
    first_dealer,
    format_cards,
)
from infra.db_prepared import fetch_prepared

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
    while not choice.done and seats[choice.chooser].is_ai:  # type: ignore[index]
        # Seeded by the deal and the turn of the choice, as the deal itself is: a match is
        # replayed from its seed alike, whenever its AI seats choose.
        rng = random.Random(f"{match.seed}:trump:{len(choice.chosen)}")
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
    # In the order of choosing, as if chosen from seat dealer + 1 on.
    order = [(dealer + 1 + i) % n for i in range(n)]
    state = None if start_tpn is None else State.from_tpn(start_tpn,
                                                          strict=variant == Variant.STRICT)
    if state is not None and state.n_players != n:
        raise ValueError(f"the position is for {state.n_players} players, not {n}")
    suits = None if trumps is None else tuple(Suit.parse(c) for c in trumps)
    if suits is not None and (len(suits) != n or len(set(suits)) != n):
        raise ValueError(f"trumps {trumps!r} do not fit {n} players")
    # Everything that can be refused is refused above: no savepoint is needed inside a
    # caller's transaction (an arena's wave makes hundreds of matches in a few).
    with transaction.atomic(savepoint=False):
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
        seats = Seat.objects.bulk_create([
            Seat(
                match=match,
                index=i,
                user=p.user,
                guest_id=p.guest_id,
                ai_level=p.ai_level,
                clock_ms=None if clock_initial is None else clock_initial * 1000,
                trump="" if state is None else state.trump(i).letter,
            )
            for i, p in enumerate(players)
        ])
        if state is not None:
            match.deal_tpn = match.position_tpn = state.tpn()
            match.position_known = state.known_text()
            match.from_position = True
            match.trumps_chosen = "".join(state.trump(s).letter for s in order)
            match.status = Status.PLAYING
            match.to_move = state.to_move
            match.started_at = now
        elif suits is not None:
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
    AI's task plays it; only it moves a seat the AI has taken over.

    A move in time that neither ends the game nor meets a draw offer, in a live game, is
    written in one statement (`_move_write`): the match's row on the version read, its move,
    the mover's clock. Anything else, or a match that changed after it was read, takes the
    path of every other change: the match locked, checked again and saved."""
    now = now or timezone.now()
    change = _move_in_one_statement(match_id=match_id, seat=seat, move=move,
                                    expected_ply=expected_ply, now=now, by_ai=by_ai)
    if change is not None:
        return change
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
        moves, held = selectors.match_moves(match=match)
        out_of_time = mover.clock_ms is not None and mover.clock_ms - elapsed <= 0
        passes = checks.seat_passes_at_flag(match)
        game = None
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
            try:
                played = _play(match, seats, mover, game, move, elapsed, now)
            except (IllegalMoveError, InvalidNotationError) as error:
                raise PlayError(errors.ILLEGAL_MOVE, str(error)) from None
            if mover.clock_ms is not None:
                mover.save(update_fields=["clock_ms"])
            Move.objects.create(match=match, ply=match.ply, seat=seat, text=played.text,
                                time_spent_ms=elapsed, clocks_after=played.clocks_after,
                                played_at=now)
            moves.append((seat, played.text))
            if (match.draw_offer_seat is not None and not mover.is_ai and seat not in
                    checks.draw_agreed(match.draw_offer_seat, match.draw_accepted)):
                # A person who moves on instead of answering declines the offer; the AI
                # answers it by its own task, whatever moves it makes meanwhile.
                match.draw_offer_seat, match.draw_accepted = None, ""
            outcome = game.outcome()
            if outcome is not None:
                match.to_move = None
                match_finish(match, seats, outcome, outcome.termination.value, now)
            else:
                # An AI seat the offer waited for went out: the others may all agree now.
                draw_agree_if_complete(match, seats, game.state.out, now)
        if not passed:
            change = change_commit(match, seats, now=now, moves=moves, held=held)
            if game is not None and not match.is_over:
                match_id, deal_tpn = match.pk, match.deal_tpn
                transaction.on_commit(
                    lambda: recent_games.put(match_id, game, deal_tpn=deal_tpn))
    if flagged:
        raise PlayError(errors.GAME_OVER, "your time ran out")
    if passed:
        raise PlayError(errors.NOT_ALLOWED, "your time ran out: the AI plays your seat now")
    return change


@dataclass(frozen=True, slots=True)
class _Played:
    text: str
    clocks_after: list[int | None] | None


def _play(match: Match, seats: Sequence[Seat], mover: Seat, game: Game, move: str,
          elapsed: int, now: datetime) -> _Played:
    """Play `move` on `game` (raises IllegalMoveError, InvalidNotationError) and change the
    match and the mover's clock as it does, in memory: the ply, the position, the cards
    taken, the turn and who is to move (if the game goes on)."""
    pile_before = game.state.pile_codes
    played = game.play(move)
    if mover.clock_ms is not None:
        # A berserk player (an arena's, `services.berserk`) gets no increment.
        increment_ms = 0 if mover.berserk else match.clock_increment * 1000
        mover.clock_ms = mover.clock_ms - elapsed + increment_ms
    match.ply += 1
    match.position_tpn = game.state.tpn()
    match.position_known = game.state.known_text()
    match.last_taken = (
        format_cards(ALL_CARDS[c] for c in pile_before[-played.count:])
        if played.kind == MoveKind.TAKE else ""
    )
    match.turn_started_at = now
    match.to_move = game.state.to_move
    return _Played(text=str(played),
                   clocks_after=[s.clock_ms for s in seats] if match.timed else None)


def _move_in_one_statement(*, match_id: int, seat: int, move: str, expected_ply: int,
                           now: datetime, by_ai: bool) -> Change | None:
    """The common move, read without a lock and written in one statement on the version
    read; None (nothing written) for anything else: a refusal, the end of the game, a draw
    offer standing, a correspondence game, a mover out of time, or a match that changed
    after it was read. The locked path then decides, and refuses with its reason."""
    if connections[DEFAULT_DB_ALIAS].vendor != "postgresql":
        return None  # one statement writes three tables only with PostgreSQL's WITH
    read = selectors.match_with_seats(match_id=match_id)
    if read is None:
        return None
    match, seats = read
    if (not 0 <= seat < len(seats) or match.status != Status.PLAYING
            or expected_ply != match.ply or match.to_move != seat or match.correspondence
            or match.draw_offer_seat is not None or (seats[seat].taken_over and not by_ai)):
        return None
    mover = seats[seat]
    elapsed = checks.elapsed_ms(match, now)
    if mover.clock_ms is not None and mover.clock_ms - elapsed <= 0:
        return None
    moves, held = selectors.match_moves(match=match)
    game = selectors.match_game(match=match, moves=[text for _seat, text in moves])
    if game is None:
        return None
    try:
        played = _play(match, seats, mover, game, move, elapsed, now)
    except (IllegalMoveError, InvalidNotationError):
        return None
    if game.outcome() is not None:
        return None
    read_version = match.version
    change_prepare(match, seats, now=now)
    if not _move_write(match, mover, read_version=read_version, played=played,
                       elapsed=elapsed, now=now):
        return None
    moves.append((seat, played.text))
    return change_announce(match, seats, now=now, moves=moves, held=held, game=game)


_MATCH_WRITTEN = ("ply", "version", "position_tpn", "position_known", "last_taken", "to_move",
                  "turn_started_at", "due_at")
_MOVE_WRITTEN = ("match", "ply", "seat", "text", "time_spent_ms", "clocks_after", "played_at")


def _move_write(match: Match, mover: Seat, *, read_version: int, played: _Played,
                elapsed: int, now: datetime) -> bool:
    """Write a move in one statement, so in one transaction: the match's row if it is still
    at `read_version` (a conditional update, which waits for and then sees any change being
    committed), and only then the move and the mover's clock. Returns whether it was written
    (False: the match changed meanwhile, and nothing was)."""
    connection = connections[DEFAULT_DB_ALIAS]
    timed = mover.clock_ms is not None
    # Numbers, texts and aware instants go to psycopg as they are, as the ORM sends them on
    # PostgreSQL; only the clocks' JSON needs the field's preparation.
    params: list[Any] = [getattr(match, name) for name in _MATCH_WRITTEN]
    params += [match.pk, read_version]
    if timed:
        params += [mover.clock_ms, mover.index]
    clocks = Move._meta.get_field("clocks_after").get_db_prep_save(played.clocks_after,
                                                                   connection)
    params += [match.ply, mover.index, played.text, elapsed, clocks, now]
    return bool(fetch_prepared(_move_write_sql(connection.vendor, timed), params))


@functools.cache
def _move_write_sql(vendor: str, timed: bool) -> str:
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name

    def column(model: type[Match | Seat | Move], name: str) -> str:
        return quote(model._meta.get_field(name).column)

    sets = ", ".join(f"{column(Match, name)} = %s" for name in _MATCH_WRITTEN)
    match_table, seat_table = quote(Match._meta.db_table), quote(Seat._meta.db_table)
    clock = (
        f", clock AS (UPDATE {seat_table} SET {column(Seat, 'clock_ms')} = %s FROM written"
        f" WHERE {seat_table}.{column(Seat, 'match')} = written.id"
        f" AND {seat_table}.{column(Seat, 'index')} = %s)"
        if timed else ""
    )
    move_columns = ", ".join(column(Move, name) for name in _MOVE_WRITTEN)
    return (
        f"WITH written AS (UPDATE {match_table} SET {sets}"
        f" WHERE {column(Match, 'id')} = %s AND {column(Match, 'version')} = %s"
        f" RETURNING {column(Match, 'id')} AS id){clock}"
        f" INSERT INTO {quote(Move._meta.db_table)} ({move_columns})"
        f" SELECT written.id, {', '.join(['%s'] * (len(_MOVE_WRITTEN) - 1))} FROM written"
        f" RETURNING 1"
    )
