"""Reads of matches: the match, who sits where, its moves, and the match as a rules-engine game.

Everything that needs a match's seats, its move list or its `games.rules.Game` reads them
here: the services (under the match's lock), the snapshots, the replays, the AI's task, the
load tool and the benches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import QuerySet
from django.db.models.expressions import Col

from games.play.game_cache import recent_games
from games.play.models import Match, Move, Seat, Status, TerminationReason, Variant
from games.play.snapshot_cache import Snapshot, recent
from games.rules import Game, State
from infra.db_prepared import fetch_prepared

M = TypeVar("M", Match, Seat)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a signed-in user and/or a guest (by the id in their session)."""

    user_id: int | None = None
    guest_id: str = ""


def match_get(*, match_id: int) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


def match_seats(*, match: Match) -> list[Seat]:
    """The match's seats in seat order, with their users."""
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def match_with_seats(*, match_id: int, lock: bool = False,
                     skip_locked: bool = False) -> tuple[Match, list[Seat]] | None:
    """The match and its seats in seat order (with their users' names) in one query, or None
    if there is no such match. With `lock`, the match row is locked for the transaction (the
    seats change only under that lock); with `skip_locked` too, None as well if another
    transaction holds it."""
    connection = connections[DEFAULT_DB_ALIAS]
    read = _MatchWithSeats.of(connection)
    sql = (read.locked_or_skipped if skip_locked else read.locked) if lock else read.sql
    rows = fetch_prepared(sql, [match_id])
    if not rows:
        return None
    n_match, n_seat = len(read.match_fields), len(read.seat_fields)
    match = read.instance(connection, Match, rows[0][:n_match])
    seats = []
    for row in rows:
        seat = read.instance(connection, Seat, row[n_match:n_match + n_seat])
        Seat.match.field.set_cached_value(seat, match)
        if seat.user_id is not None:
            username, is_bot, chat_with_strangers = row[-len(USER_FIELDS):]
            user = get_user_model().from_db(  # SQLite's booleans are read as 0 and 1
                connection.alias, ["id", *USER_FIELDS],
                [seat.user_id, username, bool(is_bot), bool(chat_with_strangers)])
            Seat.user.field.set_cached_value(seat, user)
        seats.append(seat)
    return match, seats


USER_FIELDS = ("username", "is_bot", "chat_with_strangers")
"""What `match_with_seats` reads of the seats' users (the rest is deferred)."""


class _MatchWithSeats:
    """The query of `match_with_seats` for one database vendor, made once: its SQL and the
    ORM's converters of every column."""

    _made: dict[str, _MatchWithSeats] = {}

    @classmethod
    def of(cls, connection: BaseDatabaseWrapper) -> _MatchWithSeats:
        if connection.vendor not in cls._made:
            cls._made[connection.vendor] = cls(connection)
        return cls._made[connection.vendor]

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        quote = connection.ops.quote_name
        self.match_fields = list(Match._meta.concrete_fields)
        self.seat_fields = list(Seat._meta.concrete_fields)
        user = get_user_model()._meta
        columns = ", ".join(
            [f"m.{quote(field.column)}" for field in self.match_fields]
            + [f"s.{quote(field.column)}" for field in self.seat_fields]
            # What the snapshot names a seat's person by (their name, whether a bot) and
            # what the chat asks of them (whether they talk with strangers).
            + [f"u.{quote(user.get_field(name).column)}" for name in USER_FIELDS]
        )
        self.sql = (
            f"SELECT {columns} FROM {quote(Match._meta.db_table)} m"
            f" JOIN {quote(Seat._meta.db_table)} s ON s.{quote('match_id')} = m.{quote('id')}"
            f" LEFT JOIN {quote(user.db_table)} u ON u.{quote('id')} = s.{quote('user_id')}"
            f" WHERE m.{quote('id')} = %s ORDER BY s.{quote('index')}"
        )
        features = connection.features
        self.locked = self.sql + (
            "" if not features.has_select_for_update
            else " FOR UPDATE OF m" if features.has_select_for_update_of else " FOR UPDATE"
        )
        self.locked_or_skipped = self.locked + (
            " SKIP LOCKED" if features.has_select_for_update_skip_locked
            and features.has_select_for_update else "")
        self._names = {model: [field.attname for field in fields] for model, fields in
                       ((Match, self.match_fields), (Seat, self.seat_fields))}
        self._converters = {
            model: [(index, field, converters) for index, field in enumerate(fields)
                    if (converters := _converters(connection,
                                                  field.get_col(model._meta.db_table)))]
            for model, fields in ((Match, self.match_fields), (Seat, self.seat_fields))
        }

    def instance(self, connection: BaseDatabaseWrapper, model: type[M],
                 values: Sequence[Any]) -> M:
        """A model instance from its columns of a row, converted as the ORM does."""
        converted = list(values)
        for index, field, converters in self._converters[model]:
            for converter in converters:
                converted[index] = converter(converted[index], field, connection)
        return model.from_db(connection.alias, self._names[model], converted)


def _converters(connection: BaseDatabaseWrapper, column: Col) -> list[Any]:
    """What the ORM applies to a column's value as read: the backend's, then the field's."""
    return [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)]


def seat_of(*, seats: Sequence[Seat], viewer: Viewer) -> int | None:
    """The seat the viewer plays at in this match, or None (a spectator). A person whose seat
    the AI took over at a table is still that seat's person: they see it (their hand, their
    result) though they no longer act for it."""
    for seat in seats:
        if seat.is_ai and not seat.taken_over:
            continue
        if viewer.user_id is not None and seat.user_id == viewer.user_id:
            return seat.index
        if viewer.guest_id and seat.guest_id == viewer.guest_id:
            return seat.index
    return None


def live_matches(*, limit: int = 20) -> QuerySet[Match]:
    """Public matches being played now, newest first."""
    return Match.objects.filter(public=True, status=Status.PLAYING).order_by("-created_at")[
        :limit
    ]


def match_moves(*, match: Match) -> tuple[list[tuple[int, str]], Snapshot | None]:
    """The match's moves as (seat, text) in the order played, and the snapshot they came from
    when this process holds the one of the match's current version (else None: they are read
    from the database). Called under the match's lock, that snapshot is the row's state:
    versions only grow under the lock, and a snapshot is held only once its change committed."""
    held = recent.get(match.pk, version=match.version)
    if held is not None:
        return [(seat, text) for seat, text in held["moves"]], held
    rows = Move.objects.filter(match=match).order_by("ply").values_list("seat", "text")
    return list(rows), None


def match_game(*, match: Match, moves: Sequence[str] | None = None) -> Game | None:
    """The match as a `games.rules.Game` of the caller's own: its deal, every move (`moves`,
    the texts in order, read if not given; played again from the deal only if this process
    holds no earlier game of the match, `games.play.game_cache`) and, for a match that is
    over, the way it ended (a resignation, a loss on time, an abort, a draw by agreement; a
    player who abandoned the game resigned). None while the trumps are being chosen (there
    is no deal yet)."""
    if not match.deal_tpn:
        return None
    if moves is None:
        moves = [text for _seat, text in match_moves(match=match)[0]]
    seeded = not match.from_position
    seed = match.seed if seeded else None
    game = recent_games.game_of(match.pk, deal_tpn=match.deal_tpn, seed=seed, moves=moves)
    if game is None:
        start = State.from_tpn(match.deal_tpn, strict=match.variant == Variant.STRICT)
        game = Game(start, seed=seed, dealer=match.dealer if seeded else None)
        for text in moves:
            game.play(text)
    if match.is_over and not game.is_over():
        try:
            if match.termination == TerminationReason.ABORTED:
                game.abort()
            elif match.termination == TerminationReason.AGREEMENT:
                game.agree_draw()
            elif match.termination == TerminationReason.TIMEOUT and match.loser_seat is not None:
                game.timeout(match.loser_seat)
            elif match.loser_seat is not None:
                game.resign(match.loser_seat)  # resignation, abandonment
        except ValueError:
            pass  # the stored end does not fit the rules: keep the moves as they are
    return game
