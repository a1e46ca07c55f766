"""Matchmaking services (HackSoft style: keyword-only, typed, one transaction each).

Quick pairing: a player joins one pool (a duel's time control, or a table's size and time
control, `pools`); waves pair the waiting players
(`pairing`), each wave in one transaction holding the pool's row lock, so two processes never
run a wave of the same pool at once. A wave runs at once when someone joins, and otherwise
whenever a waiting player's lobby socket asks, at most once per `MATCHMAKING_WAVE_SECONDS`: no beat
process is needed, and a wave asked for twice does nothing the second time.

Seeks and challenges start a match when accepted. A correspondence game (days per move, or
no clock between friends) is played beside any others: a player may have many at once, and
neither they nor a live game stop one from starting. Tables for 3-4 are in `tables`; what the
services share (locking, starting a match, telling the sockets) is in `core`, whose note on
locking every service follows: a pool's row before users' rows, users in the order of their
ids, and a match started only with its people locked and none of them in a live game.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import social
from accounts.models import User
from games.matchmaking import errors, pairing, signals
from games.matchmaking.core import (
    LOBBY_GROUP,
    check_free,
    group_send,
    group_send_all,
    in_live_game,
    live_game_of,
    live_players,
    lobby_changed,
    lock_users,
    offers_withdraw,
    person_check,
    pools_changed,
    rate_limit,
    rating_of,
    ratings_of,
    start_match,
    user_changed,
    user_group,
)
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Challenge, ChallengeStatus, Pool, PoolEntry, Seek
from games.matchmaking.pools import offered_time_control as _time_control
from games.matchmaking.pools import pool_spec
from games.play.models import Match
from games.play.services import Player
from games.play.time_control import TimeControl

# What the arenas (`games.tournaments`) build their games with: the same locks and the same
# start of a match as quick pairing.
__all__ = ["LOBBY_GROUP", "group_send", "group_send_all", "live_game_of", "live_players",
           "lobby_changed", "lock_users", "offers_withdraw", "person_check", "pools_changed",
           "rating_of", "ratings_of", "start_match", "user_group"]

MAX_OPEN_SEEKS = 3


def _start_match(
    *, users: list[User], time_control: TimeControl, rated: bool, now: datetime
) -> Match:
    """A match of locked, free users (a duel, or a table of a pool), seated in a random
    order."""
    players = [Player(user=user) for user in users]
    random.SystemRandom().shuffle(players)
    return start_match(players=players, time_control=time_control, rated=rated, now=now)


# --- quick pairing ----------------------------------------------------------------------------


def _pool_ensure(key: str) -> None:
    # INSERT ... ON CONFLICT DO NOTHING: safe when two processes make the first entry at once.
    Pool.objects.bulk_create([Pool(key=key)], ignore_conflicts=True)


def _pool_locked(key: str) -> Pool:
    _pool_ensure(key)
    # FOR NO KEY UPDATE: waves of the pool exclude each other, but a player joining (whose
    # new entry's foreign key takes FOR KEY SHARE on this row) is not held up by a wave.
    return Pool.objects.select_for_update(no_key=True).get(key=key)


def pool_join(
    *, user: User, pool: str, channel_name: str = "", now: datetime | None = None
) -> list[Match]:
    """Wait in the pool (a duel's time control, or a table's size and time control),
    leaving any other; a wave runs at once. Returns the matches that wave made (maybe the
    player's own)."""
    now = now or timezone.now()
    players, _control = pool_spec(pool)  # refuses an unknown pool
    person_check(user)
    rate_limit("pool_join", user)
    with transaction.atomic():
        locked = lock_users([user.pk])[user.pk]
        check_free(locked)
        _pool_ensure(pool)
        entry = PoolEntry.objects.filter(user=locked).first()
        alive_until = now + timedelta(seconds=settings.MATCHMAKING_ALIVE_SECONDS)
        if entry is not None and entry.pool_id == pool:
            entry.alive_until = alive_until
            entry.channel_name = channel_name or entry.channel_name
            entry.save(update_fields=["alive_until", "channel_name"])
        else:
            if entry is not None:
                entry.delete()
            PoolEntry.objects.create(
                user=locked, pool_id=pool, rating=rating_of(locked, players=players), joined_at=now,
                alive_until=alive_until, channel_name=channel_name,
            )
    matches = pool_wave(pool=pool, now=now, force=True)
    if not matches:  # else the wave has told the lobby already
        pools_changed()
    return matches


def pool_leave(*, user: User) -> bool:
    """Stop waiting. True if the player was waiting."""
    with transaction.atomic():
        lock_users([user.pk])
        left = PoolEntry.objects.filter(user=user).delete()[0] > 0
        if left:
            transaction.on_commit(pools_changed)
    return left


def _waved_recently(key: str, now: datetime, interval: float, row: Pool | None = None) -> bool:
    last = row.last_wave_at if row is not None else (
        Pool.objects.filter(key=key).values_list("last_wave_at", flat=True).first()
    )
    return last is not None and (now - last).total_seconds() < interval * 0.9


def pool_wave(*, pool: str, now: datetime | None = None, force: bool = False) -> list[Match]:
    """Pair the players waiting in a pool (or seat them at tables, in a table pool). Without
    `force`, nothing happens if a wave of this pool ran less than `MATCHMAKING_WAVE_SECONDS`
    ago (any process may ask; one wave runs)."""
    now = now or timezone.now()
    players, control = pool_spec(pool)
    interval = settings.MATCHMAKING_WAVE_SECONDS
    matches: list[Match] = []
    if not force and _waved_recently(pool, now, interval):
        return []  # checked without the lock first: many sockets ask, few waves run
    with transaction.atomic():
        row = _pool_locked(pool)
        if not force and _waved_recently(pool, now, interval, row=row):
            return []
        row.last_wave_at = now
        row.save(update_fields=["last_wave_at"])
        if PoolEntry.objects.filter(pool=row, alive_until__lte=now).delete()[0]:
            transaction.on_commit(pools_changed)
        entries = list(PoolEntry.objects.filter(pool=row))
        apart = social.blocked_among(user_ids=[entry.user_id for entry in entries])
        # A wave missed is a wave interval waited (so the range widens with time, whichever
        # process ran the waves, and a wave run twice counts nothing twice).
        candidates = [
            pairing.Candidate(
                key=entry.user_id,
                rating=entry.rating,
                waves=int(max(0.0, (now - entry.joined_at).total_seconds()) // interval),
                avoid=frozenset(apart.get(entry.user_id, ())),
            )
            for entry in entries
        ]
        groups: list[tuple[pairing.Candidate, ...]] = (
            list(pairing.pair(candidates)) if players == 2
            else pairing.tables(candidates, players)
        )
        if not groups:
            return []
        users = lock_users(sorted(c.key for group in groups for c in group))
        # Read again under the users' locks: someone may have left or been paired meanwhile.
        still = set(
            PoolEntry.objects.filter(pool=row, user_id__in=list(users)).values_list(
                "user_id", flat=True
            )
        )
        for group in groups:
            keys = [c.key for c in group]
            if any(key not in still for key in keys):
                continue
            busy = [key for key in keys if in_live_game(key)]
            if busy:  # started a game elsewhere meanwhile: no longer waiting
                PoolEntry.objects.filter(user_id__in=busy).delete()
                continue
            matches.append(
                _start_match(users=[users[key] for key in keys], time_control=control,
                             rated=True, now=now)
            )
        if matches:
            transaction.on_commit(pools_changed)
    return matches


# --- the lobby socket -------------------------------------------------------------------------


def lobby_heartbeat(
    *, user: User, channel_name: str, now: datetime | None = None
) -> str | None:
    """A lobby socket is still open: keep its pool entry and seeks alive (taking over the
    user's entry if it belongs to no live socket). Returns the pool the user waits in."""
    now = now or timezone.now()
    alive_until = now + timedelta(seconds=settings.MATCHMAKING_ALIVE_SECONDS)
    Seek.objects.filter(channel_name=channel_name).update(alive_until=alive_until)
    entry = PoolEntry.objects.filter(user=user, alive_until__gt=now).first()
    if entry is None:
        return None
    PoolEntry.objects.filter(pk=entry.pk).update(
        alive_until=alive_until, channel_name=channel_name
    )
    return entry.pool_id


def lobby_socket_closed(*, channel_name: str) -> None:
    """The socket is gone: its pool entry and its seeks go with it."""
    if not channel_name:
        return
    if PoolEntry.objects.filter(channel_name=channel_name).delete()[0]:
        pools_changed()
    if Seek.objects.filter(channel_name=channel_name).delete()[0]:
        lobby_changed()


# --- seeks ------------------------------------------------------------------------------------


def seek_create(
    *,
    user: User,
    time_control: str,
    rated: bool,
    channel_name: str = "",
    now: datetime | None = None,
) -> Seek:
    now = now or timezone.now()
    control = _time_control(time_control)
    person_check(user)
    rate_limit("seek_create", user)
    with transaction.atomic():
        locked = lock_users([user.pk])[user.pk]
        check_free(locked, control=control)
        if Seek.objects.filter(creator=locked, alive_until__gt=now).count() >= MAX_OPEN_SEEKS:
            raise MatchmakingError(
                errors.TOO_MANY_SEEKS,
                ngettext(
                    "You already have %(count)d open seek.",
                    "You already have %(count)d open seeks.",
                    MAX_OPEN_SEEKS,
                ) % {"count": MAX_OPEN_SEEKS},
            )
        seek = Seek.objects.create(
            creator=locked, clock_initial=control.initial, clock_increment=control.increment,
            correspondence=control.correspondence, rated=rated,
            created_at=now, alive_until=now + timedelta(seconds=settings.MATCHMAKING_ALIVE_SECONDS),
            channel_name=channel_name,
        )
        transaction.on_commit(lobby_changed)
    return seek


def seek_cancel(*, user: User, seek_id: int) -> bool:
    with transaction.atomic():
        deleted = Seek.objects.filter(pk=seek_id, creator=user).delete()[0] > 0
        if deleted:
            transaction.on_commit(lobby_changed)
    return deleted


def _seek_gone() -> MatchmakingError:
    return MatchmakingError(errors.GONE, _("This seek is no longer open."))


def seek_accept(*, user: User, seek_id: int, now: datetime | None = None) -> Match:
    """Play the seek's creator: the match starts for both."""
    now = now or timezone.now()
    seek = Seek.objects.filter(pk=seek_id, alive_until__gt=now).first()
    if seek is None:
        raise _seek_gone()
    if seek.creator_id == user.pk:
        raise MatchmakingError(errors.OWN, _("You cannot accept your own seek."))
    person_check(user)
    if social.blocked_between(first_id=seek.creator_id, second_id=user.pk):
        raise MatchmakingError(errors.BLOCKED, _("You cannot play this player."))
    with transaction.atomic():
        users = lock_users([seek.creator_id, user.pk])
        seek = Seek.objects.select_for_update().filter(pk=seek_id, alive_until__gt=now).first()
        if seek is None or seek.creator_id not in users:
            raise _seek_gone()
        control = TimeControl.of(seek)
        check_free(users[user.pk], control=control)
        check_free(users[seek.creator_id], own=False, control=control)
        if control.correspondence:
            # A correspondence seek is taken once; a live one goes with its creator's others.
            seek.delete()
            transaction.on_commit(lobby_changed)
        return _start_match(
            users=[users[seek.creator_id], users[user.pk]],
            time_control=control, rated=seek.rated, now=now,
        )


# --- challenges -------------------------------------------------------------------------------


def challenge_create(
    *,
    challenger: User,
    challenged: User | None,
    time_control: str,
    rated: bool,
    now: datetime | None = None,
    limit: str = "challenge_create",
) -> Challenge:
    """Challenge one user, or (`challenged` None) make a link anyone logged in may accept.
    A correspondence challenge stands for days (`MATCHMAKING_CORRESPONDENCE_CHALLENGE_DAYS`);
    the untimed correspondence game is casual. `limit`: the rate limit it counts against
    (`MATCHMAKING_RATE_LIMITS`; a bot's, through the API, has its own)."""
    now = now or timezone.now()
    control = _time_control(time_control, untimed_correspondence=True)
    if rated and not control.timed:
        raise MatchmakingError(errors.UNRATED_CONTROL,
                               _("A game without a clock cannot be rated."))
    if challenged is not None and challenged.pk == challenger.pk:
        raise MatchmakingError(errors.OWN, _("You cannot challenge yourself."))
    if challenged is not None and not challenged.is_active:
        raise MatchmakingError(errors.NO_SUCH_PLAYER, _("This account is closed."))
    if challenged is not None and social.blocked_between(first_id=challenger.pk,
                                                         second_id=challenged.pk):
        raise MatchmakingError(errors.BLOCKED, _("You cannot challenge this player."))
    rate_limit(limit, challenger)
    with transaction.atomic():
        challenge = Challenge.objects.create(
            token=secrets.token_urlsafe(12), challenger=challenger, challenged=challenged,
            clock_initial=control.initial, clock_increment=control.increment,
            correspondence=control.correspondence, rated=rated,
            created_at=now,
            expires_at=now + (
                timedelta(days=settings.MATCHMAKING_CORRESPONDENCE_CHALLENGE_DAYS)
                if control.correspondence
                else timedelta(minutes=settings.MATCHMAKING_CHALLENGE_MINUTES)),
        )
        if challenged is not None:
            challenged_id = challenged.pk
            transaction.on_commit(lambda: user_changed(challenged_id))
            # Every open page of theirs, not only the lobby, hears of it.
            signals.challenge_issued.send(sender=Challenge, challenge=challenge)
    return challenge


def _challenge_open(token: str, now: datetime, *, lock: bool = False) -> Challenge:
    rows = Challenge.objects.select_for_update() if lock else Challenge.objects
    challenge = rows.filter(token=token).first()
    if challenge is None or challenge.status != ChallengeStatus.PENDING:
        raise MatchmakingError(errors.GONE, _("This challenge is no longer open."))
    if challenge.expires_at <= now:
        raise MatchmakingError(errors.EXPIRED, _("This challenge has expired."))
    return challenge


def challenge_accept(*, user: User, token: str, now: datetime | None = None) -> Match:
    now = now or timezone.now()
    challenge = _challenge_open(token, now)
    if challenge.challenger_id == user.pk:
        raise MatchmakingError(errors.OWN, _("You cannot accept your own challenge."))
    if challenge.challenged_id is not None and challenge.challenged_id != user.pk:
        raise MatchmakingError(errors.NOT_FOR_YOU, _("This challenge is for someone else."))
    if social.blocked_between(first_id=challenge.challenger_id, second_id=user.pk):
        raise MatchmakingError(errors.BLOCKED, _("You cannot play this player."))
    with transaction.atomic():
        users = lock_users([challenge.challenger_id, user.pk])
        challenge = _challenge_open(token, now, lock=True)
        control = TimeControl.of(challenge)
        check_free(users[user.pk], control=control)
        check_free(users[challenge.challenger_id], own=False, control=control)
        match = _start_match(
            users=[users[challenge.challenger_id], users[user.pk]],
            time_control=control,
            rated=challenge.rated, now=now,
        )
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.challenged = users[user.pk]
        challenge.match = match
        challenge.save(update_fields=["status", "challenged", "match"])
        signals.challenge_answered.send(sender=Challenge, challenge=challenge)
    return match


def challenge_decline(*, user: User, token: str, now: datetime | None = None) -> Challenge:
    """The challenged player says no (or the challenger withdraws: cancelled)."""
    now = now or timezone.now()
    with transaction.atomic():
        challenge = _challenge_open(token, now, lock=True)
        if challenge.challenger_id == user.pk:
            challenge.status = ChallengeStatus.CANCELLED
            other = challenge.challenged_id
        elif challenge.challenged_id == user.pk:
            challenge.status = ChallengeStatus.DECLINED
            other = challenge.challenger_id
        else:
            raise MatchmakingError(errors.NOT_FOR_YOU, _("This challenge is for someone else."))
        challenge.save(update_fields=["status"])
        signals.challenge_answered.send(sender=Challenge, challenge=challenge)
        if other is not None:
            transaction.on_commit(lambda: user_changed(other))
    return challenge
