"""What the tournament services share (and nothing outside the package imports but through
`services`): telling the pages, rate limits, finding a tournament, and starting a game of one.

Locking, on top of matchmaking's (`games.matchmaking.core`): a tournament's row is locked
before users' rows (as a pool's is), and participants' rows, several in the order of their
ids, after those. A player is taken out of the free players (`Participant.free_since` set to
None) by a conditional update in the same transaction as their match, and a match starts only
for locked users in no other live game (`start_match`), so nobody is ever in two games.
"""

from __future__ import annotations

import math
import random
import time
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import ratelimit
from accounts.models import User
from games.matchmaking.services import (
    group_send,
    group_send_all,
    live_players,
    lock_users,
    offers_withdraw,
    start_match,
)
from games.play.models import Match
from games.play.services import Player
from games.tournaments import errors
from games.tournaments.errors import TournamentError
from games.tournaments.models import Participant, Tournament, TournamentGame
from games.tournaments.selectors import state_cache_key


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """Every page of the tournament re-reads its standings (at most once a second each),
    as of this instant or later (`at`: a state cached before it is not good enough,
    `selectors.tournament_public_state`)."""
    cache.delete_many([state_cache_key(tournament_id, code) for code, _name in settings.LANGUAGES])
    group_send(tournament_group(tournament_id),
               {"type": "tournament.changed", "at": time.time()})


def tournament_player_group(tournament_id: int, user_id: int) -> str:
    """The group of one player's pages of a tournament: where their `paired` goes, so that a
    wave's news reaches the pages of the players it paired and no others."""
    return f"tournament-{tournament_id}-player-{user_id}"


def tell_paired(tournament_id: int, games: dict[int, str]) -> None:
    """Each player's pages of the tournament go to their game (`games`: user id -> url)."""
    group_send_all([
        (tournament_player_group(tournament_id, user_id),
         {"type": "tournament.paired", "user_id": user_id, "url": url})
        for user_id, url in games.items()])


def rate_limit(action: str, user: User) -> None:
    limit, window = settings.TOURNAMENTS_RATE_LIMITS[action]
    wait = ratelimit.hit(key=f"tournament-{action}:{user.pk}", limit=limit, window=window)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise TournamentError(errors.RATE_LIMITED, ngettext(
            "You are doing that too often. Please wait %(seconds)d second.",
            "You are doing that too often. Please wait %(seconds)d seconds.",
            seconds,
        ) % {"seconds": seconds})


def tournament_of(token: str, *, lock: bool = False) -> Tournament:
    rows = Tournament.objects.select_for_update(no_key=True) if lock else Tournament.objects
    tournament = rows.filter(token=token).first()
    if tournament is None:
        raise TournamentError(errors.NOT_FOUND, _("There is no such tournament."))
    return tournament


def match_url(match: Match) -> str:
    from games.matchmaking.selectors import match_page_url

    return match_page_url(match_id=match.pk)


def lock_free_users(user_ids: list[int]) -> dict[int, User]:
    """Lock these users' rows (in the order of their ids, matchmaking's rule) and return
    those of them who play no live game: while their rows are locked, none can start one."""
    users = lock_users(sorted(user_ids))
    for user_id in live_players(list(users)):
        del users[user_id]
    return users


def games_start(tournament: Tournament, groups: list[list[Participant]],
                users: dict[int, User], now: datetime, *,
                round_: int | None = None) -> list[tuple[list[Participant], Match]]:
    """The games of these groups of free participants (`game_start`), each group with the
    match it got; the players' other offers are withdrawn once for all of them."""
    started = []
    for group in groups:
        match = game_start(tournament, group, users, now, round_=round_)
        if match is not None:
            started.append((group, match))
    offers_withdraw(user_ids=[p.user_id for group, _match in started for p in group])
    return started


def game_start(tournament: Tournament, participants: list[Participant], users: dict[int, User],
               now: datetime, *, round_: int | None = None) -> Match | None:
    """The game of these free participants (one: against the AI at the level of their
    rating), or None if one of them is no longer free (then nothing changes). `users`:
    their rows, locked and in no live game (`lock_free_users`), as matchmaking starts every
    match; each is given at most one game. Their other offers stand: `games_start`
    withdraws them, once for a wave's part or a round."""
    ids = [p.user_id for p in participants]
    if any(uid not in users for uid in ids):
        return None
    with transaction.atomic():  # a savepoint: a player no longer free undoes only this game
        taken = Participant.objects.filter(
            tournament=tournament, user_id__in=ids, free_since__isnull=False,
        ).update(free_since=None)
        if taken != len(ids):
            transaction.set_rollback(True)
            return None
        players = [Player(user=users[uid]) for uid in ids]
        if len(players) == 1:
            from games.ai import level_for_rating

            players.append(Player(ai_level=level_for_rating(participants[0].rating)))
        random.SystemRandom().shuffle(players)
        # A game against the AI cannot be rated: it is scored in the arena all the same.
        match = start_match(players=players, time_control=tournament.time_control,
                            rated=tournament.rated and len(ids) == 2, now=now,
                            withdraw_offers=False)
        TournamentGame.objects.create(
            tournament=tournament, match=match, user_a=players[0].user,
            user_b=players[1].user, round=round_, created_at=now,
        )
    for uid in ids:
        del users[uid]  # playing now
    return match
