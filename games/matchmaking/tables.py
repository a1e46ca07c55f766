"""Tables for 3 and 4: created in the lobby, sat down at, filled with the AI, started.

A table is open until it starts. People sit down at its seats (a person at one open live table
at a time, which the database says, and at up to `MATCHMAKING_OPEN_CORRESPONDENCE_TABLES` open
correspondence tables, counted under their user row lock); its
creator may put the AI in any empty seat of a casual table, and start it once every seat is
taken; a table whose seats are all taken by people starts by itself, in the transaction of the
last person sitting down. A person's seat at a live
table lives while their lobby socket renews it (`MATCHMAKING_ALIVE_SECONDS`); a creator who
leaves, or whose seat lapses, closes the table. A correspondence table (days per move) fills
over hours or days while its people come and go: its seats never lapse, they are left, and
sitting at one bars no other game, nor a seat at a live table (`core.check_free`,
`core.start_match`), and one nobody filled within `MATCHMAKING_CORRESPONDENCE_TABLE_DAYS` of
its creation closes, its people notified (`correspondence_tables_close_stale`, run by beat).

Every change holds the table's row lock and then the seated people's user rows, in the order
of their ids (`core`'s note on locking), so two people taking the last seat at once, or a
start asked for twice, seat nobody twice and start one match. A retried request finds what
it did done: sitting down again at one's own seat changes nothing, and a start of a started
table returns its match.

After commit, the lobby group is told when a public table changed, and the people at a
private one on their user groups.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import social
from accounts.models import User
from games.ai import LEVELS, level_for_rating
from games.matchmaking import errors, signals
from games.matchmaking.core import (
    check_free,
    lobby_changed,
    lock_users,
    person_check,
    pools_changed,
    rate_limit,
    start_match,
    user_changed,
)
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Pool, PoolEntry, Table, TableSeat
from games.matchmaking.pools import offered_time_control, pool_spec
from games.play.models import Match
from games.play.services import Player
from games.play.time_control import UNTIMED, UNTIMED_KEY, TimeControl

TABLE_SIZES = (3, 4)


def _gone() -> MatchmakingError:
    return MatchmakingError(errors.GONE, _("This table is no longer open."))


def _table_time_control(key: str) -> TimeControl:
    """A table's time control: untimed, live, or days per move (never the correspondence
    game without a clock: a table waits for several people, and one who never moves would
    hold every other seat for ever)."""
    return UNTIMED if key == UNTIMED_KEY else offered_time_control(key)


def _alive_until(table: Table, now: datetime) -> datetime | None:
    """Until when a person's new seat lives without their lobby socket renewing it: a
    correspondence table fills over days, while its people come and go, so its seats live
    until they are left."""
    return None if table.correspondence else _lease_end(now)


def _lease_end(now: datetime) -> datetime:
    return now + timedelta(seconds=settings.MATCHMAKING_ALIVE_SECONDS)


def _locked(token: str) -> Table:
    """The open table of a token, its row locked."""
    table = Table.objects.select_for_update().filter(token=token, match__isnull=True).first()
    if table is None:
        raise _gone()
    return table


def _seats(table: Table) -> dict[int, TableSeat]:
    return {seat.index: seat for seat in TableSeat.objects.filter(table=table)}


def _told(table: Table, user_ids: Sequence[int]) -> None:
    """After commit: the lobby (a public table) or the people concerned (a private one)."""
    if table.public:
        transaction.on_commit(lobby_changed)
        return
    for user_id in set(user_ids):
        transaction.on_commit(lambda user_id=user_id: user_changed(user_id))


def _people(seats: dict[int, TableSeat]) -> list[int]:
    return [seat.user_id for seat in seats.values() if seat.user_id is not None]


def _check_seat_free(user: User, *, correspondence: bool, table: Table | None = None) -> None:
    """A person sits at one open live table, and at up to
    `MATCHMAKING_OPEN_CORRESPONDENCE_TABLES` correspondence ones that fill over days beside it
    (so that on a quiet site they wait at several). Called with the person's user row locked:
    two sittings at once count one after the other."""
    seats = TableSeat.objects.filter(user=user, correspondence=correspondence).exclude(
        table=table)
    if not correspondence:
        if seats.exists():
            raise MatchmakingError(errors.ALREADY_SEATED,
                                   _("You are sitting at another table: leave it first."))
        return
    limit = settings.MATCHMAKING_OPEN_CORRESPONDENCE_TABLES
    if seats.count() >= limit:
        raise MatchmakingError(errors.ALREADY_SEATED, ngettext(
            "You are sitting at %(limit)d open correspondence table, the most at once: "
            "leave it first.",
            "You are sitting at %(limit)d open correspondence tables, the most at once: "
            "leave one of them first.",
            limit) % {"limit": limit})


def table_create(
    *,
    user: User,
    players: int,
    time_control: str,
    rated: bool,
    public: bool,
    now: datetime | None = None,
) -> Table:
    """A new open table of `players` (3 or 4), its creator in the first seat."""
    now = now or timezone.now()
    if players not in TABLE_SIZES:
        raise MatchmakingError(errors.BAD_TABLE, _("A table is for 3 or 4 players."))
    control = _table_time_control(time_control)
    person_check(user)
    rate_limit("table_create", user)
    with transaction.atomic():
        locked = lock_users([user.pk])[user.pk]
        check_free(locked, control=control)
        _check_seat_free(locked, correspondence=control.correspondence)
        table = Table.objects.create(
            token=secrets.token_urlsafe(12), creator=locked, n_players=players,
            clock_initial=control.initial, clock_increment=control.increment,
            correspondence=control.correspondence, rated=rated, public=public, created_at=now,
        )
        TableSeat.objects.create(table=table, index=0, user=locked,
                                 correspondence=table.correspondence, joined_at=now,
                                 alive_until=_alive_until(table, now))
        _told(table, [locked.pk])
    return table


def table_join(
    *, user: User, token: str, seat: int | None = None, now: datetime | None = None
) -> Match | None:
    """Sit down at a seat of an open table (`seat` None: the first empty one). Returns the
    match when this filled the table with people (it starts at once)."""
    now = now or timezone.now()
    person_check(user)
    rate_limit("table_join", user)
    with transaction.atomic():
        table = _locked(token)
        seats = _seats(table)
        users = lock_users(sorted({user.pk, *_people(seats)}))
        if user.pk not in users:  # the account went away meanwhile
            raise _gone()
        mine = next((s for s in seats.values() if s.user_id == user.pk), None)
        if mine is not None:  # a retried request: already seated here
            if seat is not None and seat != mine.index:
                raise MatchmakingError(errors.ALREADY_SEATED,
                                       _("You are sitting at this table already."))
            return None
        check_free(users[user.pk], control=TimeControl.of(table))
        _check_seat_free(users[user.pk], correspondence=table.correspondence, table=table)
        if social.blocked_among(user_ids=[user.pk, *_people(seats)]).get(user.pk):
            raise MatchmakingError(errors.BLOCKED, _("You cannot play at this table."))
        free = [index for index in range(table.n_players) if index not in seats]
        if seat is None:
            if not free:
                raise MatchmakingError(errors.SEAT_TAKEN, _("Every seat is taken."))
            seat = free[0]
        elif not 0 <= seat < table.n_players:
            raise MatchmakingError(errors.BAD_TABLE, _("There is no such seat."))
        elif seat not in free:
            raise MatchmakingError(errors.SEAT_TAKEN, _("That seat is taken."))
        seats[seat] = TableSeat.objects.create(
            table=table, index=seat, user=users[user.pk], correspondence=table.correspondence,
            joined_at=now, alive_until=_alive_until(table, now),
        )
        _told(table, _people(seats))
        if len(seats) == table.n_players and all(s.user_id for s in seats.values()):
            return _start(table, seats, users, now)
    return None


def table_leave(*, user: User, token: str) -> bool:
    """Get up from an open table; its creator getting up closes it. True if seated there."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(token=token, match__isnull=True).first()
        if table is None:
            return False
        seats = _seats(table)
        if not any(s.user_id == user.pk for s in seats.values()):
            return False
        _told(table, _people(seats))
        if table.creator_id == user.pk:
            table.delete()
        else:
            TableSeat.objects.filter(table=table, user=user).delete()
    return True


def _creator_locked(user: User, token: str) -> tuple[Table, dict[int, TableSeat]]:
    table = _locked(token)
    if table.creator_id != user.pk:
        raise _not_creator()
    return table, _seats(table)


def _not_creator() -> MatchmakingError:
    return MatchmakingError(errors.NOT_CREATOR, _("Only the table's creator may do that."))


def table_fill_ai(
    *, user: User, token: str, seat: int, level: int, now: datetime | None = None
) -> TableSeat:
    """The creator puts the AI at `level` in an empty seat of a casual table."""
    now = now or timezone.now()
    if level not in {lv.number for lv in LEVELS}:
        raise MatchmakingError(errors.BAD_TABLE, _("There is no such level."))
    with transaction.atomic():
        table, seats = _creator_locked(user, token)
        if table.rated:
            raise MatchmakingError(errors.BAD_TABLE,
                                   _("A rated table is for people only."))
        if not 0 <= seat < table.n_players:
            raise MatchmakingError(errors.BAD_TABLE, _("There is no such seat."))
        if seat in seats:
            raise MatchmakingError(errors.SEAT_TAKEN, _("That seat is taken."))
        created = TableSeat.objects.create(table=table, index=seat, ai_level=level,
                                           correspondence=table.correspondence, joined_at=now)
        _told(table, _people(seats))
    return created


def table_seat_clear(*, user: User, token: str, seat: int) -> bool:
    """The creator takes the AI out of a seat again. True if there was one."""
    with transaction.atomic():
        table, seats = _creator_locked(user, token)
        cleared = TableSeat.objects.filter(table=table, index=seat,
                                           ai_level__isnull=False).delete()[0] > 0
        if cleared:
            _told(table, _people(seats))
    return cleared


def table_start(*, user: User, token: str, now: datetime | None = None) -> Match:
    """The creator starts a table whose every seat is taken. Asked again once started, the
    same match."""
    now = now or timezone.now()
    with transaction.atomic():
        # Locked whether started or not: a start that waited for another one's lock finds
        # the table started and returns its match.
        table = Table.objects.select_for_update().filter(token=token).first()
        if table is None:
            raise _gone()
        if table.creator_id != user.pk:
            raise _not_creator()
        if table.match is not None:
            return table.match
        seats = _seats(table)
        users = lock_users(sorted(_people(seats)))
        if len(seats) < table.n_players:
            raise MatchmakingError(errors.NOT_FULL,
                                   _("Every seat must be taken before the table starts."))
        return _start(table, seats, users, now)


def _start(table: Table, seats: dict[int, TableSeat], users: dict[int, User],
           now: datetime) -> Match:
    """Start a full table (its row and its people locked): the match, seated as at the
    table, and the table's seats given up."""
    control = TimeControl.of(table)
    for seat in seats.values():
        if seat.user_id is not None:
            check_free(users[seat.user_id], own=False, control=control)
    players = [
        Player(ai_level=seats[i].ai_level) if seats[i].user_id is None
        else Player(user=users[seats[i].user_id])  # type: ignore[index]
        for i in range(table.n_players)
    ]
    match = start_match(players=players, time_control=control, rated=table.rated, now=now)
    TableSeat.objects.filter(table=table).delete()
    table.match = match
    table.save(update_fields=["match"])
    _told(table, [])
    return match


def tables_expire(*, now: datetime | None = None) -> int:
    """Give up the seats of people whose lobby socket stopped renewing them (a creator's
    closes the table). Returns how many tables changed; one cheap query when none."""
    now = now or timezone.now()
    lapsed = set(TableSeat.objects.filter(user__isnull=False, alive_until__lte=now)
                 .values_list("table_id", flat=True))
    changed = 0
    for table_id in sorted(lapsed):
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id,
                                                             match__isnull=True).first()
            if table is None:
                continue
            seats = _seats(table)
            gone = [s.user_id for s in seats.values()
                    if s.user_id is not None and s.alive_until is not None
                    and s.alive_until <= now]
            if not gone:
                continue
            _told(table, _people(seats))
            if table.creator_id in gone:
                table.delete()
            else:
                TableSeat.objects.filter(table=table, user_id__in=gone).delete()
            changed += 1
    return changed


def correspondence_tables_close_stale(*, now: datetime | None = None) -> int:
    """Close the open correspondence tables nobody filled within
    `MATCHMAKING_CORRESPONDENCE_TABLE_DAYS` of their creation (else one stays open for ever,
    its people waiting): each person seated there is notified. Returns how many closed; run
    twice, the second finds them gone."""
    now = now or timezone.now()
    days = settings.MATCHMAKING_CORRESPONDENCE_TABLE_DAYS
    cutoff = now - timedelta(days=days)
    stale = Table.objects.filter(correspondence=True, match__isnull=True, created_at__lte=cutoff)
    closed = 0
    for table_id in sorted(stale.values_list("pk", flat=True)):
        with transaction.atomic():
            # Locked as every change locks it: a person sitting down meanwhile fills it first
            # (and a full table has started), or finds it gone.
            table = stale.select_for_update().filter(pk=table_id).first()
            if table is None:
                continue
            people = _people(_seats(table))
            lock_users(sorted(people))
            for user_id in people:
                signals.table_closed.send(sender=Table, user_id=user_id, table=table, days=days,
                                          now=now)
            _told(table, people)
            table.delete()
            closed += 1
    return closed


def table_seats_renew(*, user: User, now: datetime | None = None) -> None:
    """The person's lobby socket is open: their seat at a live table stays theirs (one at a
    correspondence table needs no renewing)."""
    now = now or timezone.now()
    TableSeat.objects.filter(user=user, alive_until__isnull=False).update(
        alive_until=_lease_end(now))


# --- the quick pairing of tables: the rest filled with the AI ---------------------------------


def pool_fill_ai(*, user: User, now: datetime | None = None) -> Match:
    """A player who has waited in a table pool for `MATCHMAKING_TABLE_FILL_AI_SECONDS` takes
    the AI in the other seats, at the level that plays about like them: a casual game that
    starts at once (the AI has no rating to stake)."""
    now = now or timezone.now()
    entry = PoolEntry.objects.filter(user=user, alive_until__gt=now).first()
    if entry is None or pool_spec(entry.pool_id)[0] == 2:
        raise MatchmakingError(errors.NOT_WAITING, _("You are not waiting for a table."))
    with transaction.atomic():
        # The pool before the user, as a wave locks them: a wave that seats this player and
        # this filling cannot both happen.
        Pool.objects.select_for_update(no_key=True).filter(key=entry.pool_id).first()
        locked = lock_users([user.pk])[user.pk]
        entry = PoolEntry.objects.filter(user=locked, pool_id=entry.pool_id,
                                         alive_until__gt=now).first()
        if entry is None:
            raise MatchmakingError(errors.NOT_WAITING, _("You are not waiting for a table."))
        waited = (now - entry.joined_at).total_seconds()
        if waited < settings.MATCHMAKING_TABLE_FILL_AI_SECONDS:
            raise MatchmakingError(errors.NOT_WAITING,
                                   _("Wait a little longer for other players first."))
        check_free(locked)
        players_n, control = pool_spec(entry.pool_id)
        level = level_for_rating(entry.rating)
        players = [Player(ai_level=level) for _seat in range(players_n - 1)]
        players.insert(random.SystemRandom().randrange(players_n), Player(user=locked))
        match = start_match(players=players, time_control=control, rated=False, now=now)
        transaction.on_commit(pools_changed)
    return match
