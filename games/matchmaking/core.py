"""What every matchmaking service shares (and nothing outside the package imports but
through `services`): rate limits, locking users, who is free, starting a match, and telling
the sockets.

Locking, so that a player never lands in two matches and nothing deadlocks: every change to a
player's matchmaking state first locks that player's user row; several users are locked in
the order of their ids; a pool's or a table's row is only ever locked before users' rows, and
never a pool and a table in one transaction. A match is started only with its people locked
and none of them in a live game (unless the new one is a correspondence game).

After commit, the people of a new match are told on their user group (`user-<id>`), and the
lobby group (`lobby`) is told when the lists of seeks or tables changed, and sent the new
numbers of waiting players when they changed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import ratelimit
from accounts.models import PlayerRating, RatingMode, User
from accounts.ratings import START_RATING
from games.matchmaking import errors
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import PoolEntry, Seek, Table, TableSeat
from games.play.models import Match, Seat, Status
from games.play.services import Player, match_create
from games.play.time_control import TimeControl
from infra.group_send import group_send_all

LOBBY_GROUP = "lobby"


def rate_limit(action: str, user: User) -> None:
    limit, window = settings.MATCHMAKING_RATE_LIMITS[action]
    wait = ratelimit.hit(key=f"{action}:{user.pk}", limit=limit, window=window)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise MatchmakingError(
            errors.RATE_LIMITED,
            ngettext(
                "You are doing that too often. Please wait %(seconds)d second.",
                "You are doing that too often. Please wait %(seconds)d seconds.",
                seconds,
            ) % {"seconds": seconds},
        )


def person_check(user: User) -> None:
    """A bot account plays only through the API (`games.api`), which takes and makes
    challenges; the lobby's pools, seeks and tables are people's."""
    if user.is_bot:
        raise MatchmakingError(errors.BOT_ACCOUNT, _("A bot account plays only through the API."))


def lock_users(user_ids: Sequence[int]) -> dict[int, User]:
    """Lock the users' rows, in the order of their ids (see the module's note on locking)."""
    users = User.objects.select_for_update().filter(pk__in=list(user_ids)).order_by("pk")
    return {user.pk: user for user in users}


def _live_seats(user_ids: Sequence[int]) -> QuerySet[Seat]:
    """These users' seats in live games (correspondence games do not count)."""
    return Seat.objects.filter(
        user_id__in=list(user_ids), match__status__in=[Status.TRUMPS, Status.PLAYING],
        match__correspondence=False)


def live_game_of(user_id: int) -> int | None:
    """The id of a live game the user is playing, if any (correspondence games do not count)."""
    return _live_seats([user_id]).order_by("-match_id").values_list("match_id", flat=True).first()


def live_players(user_ids: Sequence[int]) -> set[int]:
    """Those of these users who play a live game now: one query for many."""
    return set(_live_seats(user_ids).values_list("user_id", flat=True))


def in_live_game(user_id: int) -> bool:
    return live_game_of(user_id) is not None


def check_free(user: User, *, own: bool = True, control: TimeControl | None = None) -> None:
    """A live game may start only for a player in no other live game (`control`: the new
    game's; a correspondence game may always start)."""
    if control is not None and control.correspondence:
        return
    live = live_game_of(user.pk)
    if live is not None:
        if own:
            raise MatchmakingError(
                errors.IN_GAME, _("You are playing a game: finish it first."),
                url=reverse("games:match", args=[live]),
            )
        raise MatchmakingError(
            errors.OPPONENT_IN_GAME,
            _("%(name)s is playing another game.") % {"name": user.username},
        )


def rating_of(user: User, *, players: int = 2) -> float:
    """The rating that seats the player in a pool: the duel's, or at a table of 3-4 the
    tables' own (shown in the same points, a newcomer at the same 1500)."""
    return ratings_of(user_ids=[user.pk], players=players)[user.pk]


def ratings_of(*, user_ids: Sequence[int], players: int = 2) -> dict[int, float]:
    """`rating_of` each of these players, in one query."""
    mode = RatingMode.DUEL if players == 2 else RatingMode.TABLE
    ratings = dict.fromkeys(user_ids, START_RATING)
    ratings.update(PlayerRating.objects.filter(user_id__in=list(user_ids), mode=mode)
                   .values_list("user_id", "rating"))
    return ratings


def start_match(
    *, players: Sequence[Player], time_control: TimeControl, rated: bool, now: datetime,
    withdraw_offers: bool = True,
) -> Match:
    """A match of locked, free people (and maybe AI seats), seated in the order given; the
    people's other offers are withdrawn (`offers_withdraw`) unless it is a correspondence
    game, played beside the others. `withdraw_offers=False`: the caller withdraws them in
    the same transaction, once for the people of many matches (an arena's wave)."""
    match = match_create(players=players, rated=rated, time_control=time_control, now=now)
    ids = [player.user.pk for player in players if player.user is not None]
    transaction.on_commit(lambda: announce_match(match_id=match.pk, user_ids=ids))
    if withdraw_offers and not time_control.correspondence:
        offers_withdraw(user_ids=ids)
    return match


def offers_withdraw(*, user_ids: Sequence[int]) -> None:
    """These people start a live game: their pool entries and seeks go now, their seats at
    open live tables just after commit (`tables_release`, which locks those tables first)."""
    ids = list(user_ids)
    if not ids:
        return
    PoolEntry.objects.filter(user_id__in=ids).delete()
    if Seek.objects.filter(creator_id__in=ids).delete()[0] > 0:
        transaction.on_commit(lobby_changed)
    if _live_table_seats(ids).exists():
        transaction.on_commit(lambda: tables_release(user_ids=ids))


def _live_table_seats(user_ids: Sequence[int]) -> QuerySet[TableSeat]:
    """These people's seats at open live tables (a seat at a correspondence table stays
    while its person plays anything else)."""
    return TableSeat.objects.filter(user_id__in=list(user_ids), correspondence=False)


def tables_release(*, user_ids: Sequence[int]) -> None:
    """Take the seats of these people at open live tables away (they are playing now): each
    table locked first, as everywhere; a table whose creator went with them closes."""
    table_ids = set(_live_table_seats(user_ids).values_list("table_id", flat=True))
    for table_id in sorted(table_ids):
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id,
                                                             match__isnull=True).first()
            if table is None:
                continue
            if table.creator_id in user_ids:
                table.delete()
            else:
                TableSeat.objects.filter(table=table, user_id__in=list(user_ids)).delete()
            transaction.on_commit(lobby_changed)


# --- telling the sockets ----------------------------------------------------------------------


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def group_send(group: str, event: dict[str, object]) -> None:
    group_send_all([(group, event)])


def announce_match(*, match_id: int, user_ids: list[int]) -> None:
    from games.matchmaking.selectors import match_page_url

    url = match_page_url(match_id=match_id)
    group_send_all([(user_group(user_id), {"type": "user.paired", "match_id": match_id,
                                           "url": url}) for user_id in user_ids])


def lobby_changed() -> None:
    """Every lobby socket re-reads the lists of seeks and tables."""
    group_send(LOBBY_GROUP, {"type": "lobby.changed"})


def pools_changed() -> None:
    """Every lobby socket gets the new numbers of waiting players (one query, here)."""
    from games.matchmaking.selectors import pools

    group_send(LOBBY_GROUP, {"type": "lobby.pools", "pools": pools()})


def user_changed(user_id: int) -> None:
    group_send(user_group(user_id), {"type": "user.changed"})
