"""The friends list of the header: each friend, whether they are online and the game they
play now (to watch). Who is online is the site sockets' count (`infra.socket_caps`),
given by the caller; the rest is read here."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from accounts import social
from accounts.models import User
from games.play.models import Seat, Status


def friends_rows(*, user_id: int, online: set[int]) -> list[dict[str, Any]]:
    """The friends of `user_id`, online first, then by name."""
    friends = User.objects.filter(pk__in=social.friend_ids(user_id=user_id), is_active=True)
    ids = [friend.pk for friend in friends]
    playing = dict(
        Seat.objects.filter(user_id__in=ids, match__status__in=[Status.TRUMPS, Status.PLAYING])
        .order_by("match_id").values_list("user_id", "match_id"))
    rows = [{
        "name": friend.username,
        "url": reverse("profile", args=[friend.username]),
        "online": friend.pk in online,
        "watch_url": reverse("games:match", args=[playing[friend.pk]])
        if friend.pk in playing else None,
        "challenge_url": reverse("matchmaking:friend_challenge", args=[friend.username]),
    } for friend in friends]
    rows.sort(key=lambda row: (not row["online"], row["name"].casefold()))
    return rows
