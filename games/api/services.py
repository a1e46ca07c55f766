"""What the API changes beyond the services of play and matchmaking, which it calls for
everything else (the one door of moves, challenges): turning an account into a bot, and the
checks a bot's challenge passes first."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from accounts.selectors import user_get_by_username
from games.api import errors
from games.api.errors import ApiError
from games.matchmaking import services as matchmaking
from games.matchmaking.models import Challenge, PoolEntry, Seek
from games.play.models import Seat


def bot_account_upgrade(*, user: User) -> User:
    """Make a fresh account (no game played, none waiting to be paired) a bot account for
    good. Asking twice is no error."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_bot:
            return locked
        if (Seat.objects.filter(user=locked).exists()
                or PoolEntry.objects.filter(user=locked).exists()
                or Seek.objects.filter(creator=locked).exists()):
            raise ApiError(400, errors.NOT_FRESH,
                           "only an account that has played no game can become a bot")
        locked.is_bot = True
        locked.save(update_fields=["is_bot"])
    return locked


def bot_challenge_create(*, challenger: User, username: str, time_control: str,
                         rated: bool) -> Challenge:
    """`challenger` challenges the player `username` through the API (matchmaking's
    `challenge_create`, with its rules and limits); a person who turned off challenges from
    bots refuses a bot's."""
    challenged = user_get_by_username(username=username)
    if challenged is None or not challenged.is_active:
        raise ApiError(404, errors.NOT_FOUND, f"there is no player {username}")
    if challenger.is_bot and not challenged.is_bot and not challenged.bot_challenges:
        raise ApiError(403, errors.NO_BOT_CHALLENGES,
                       f"{challenged.username} does not accept challenges from bots")
    return matchmaking.challenge_create(
        challenger=challenger, challenged=challenged, time_control=time_control, rated=rated,
        limit="bot_challenge_create" if challenger.is_bot else "challenge_create")
