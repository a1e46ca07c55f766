"""Follows, friends and blocks: the writes and the reads.

A follow is one way; two follows either way make two players friends. A block removes the
follows between the two and keeps them apart: neither can challenge the other, they are never
paired, and neither sees the other's chat (`games.play.chat`). Profiles' words and flags are here
too, held to the rules of chat (`accounts.moderation`).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts import moderation
from accounts.countries import COUNTRY_CODES
from accounts.models import Block, Follow, User

BIO_LENGTH = 300


class SocialError(Exception):
    """A refused follow, block or profile change; `detail` is said to the player."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def follow_create(*, follower: User, followed: User) -> bool:
    """`follower` follows `followed`. True if it is new (following twice is one follow)."""
    if follower.pk == followed.pk:
        raise SocialError("own", _("You cannot follow yourself."))
    if not followed.is_active:
        raise SocialError("closed", _("This account is closed."))
    if blocked_between(first_id=follower.pk, second_id=followed.pk):
        raise SocialError("blocked", _("You cannot follow this player."))
    try:
        with transaction.atomic():
            Follow.objects.create(follower=follower, followed=followed)
    except IntegrityError:  # already following (two tabs, or a click sent twice)
        return False
    return True


def follow_delete(*, follower: User, followed: User) -> None:
    Follow.objects.filter(follower=follower, followed=followed).delete()


def block_create(*, blocker: User, blocked: User) -> None:
    """`blocker` blocks `blocked`, which ends the follows between them."""
    if blocker.pk == blocked.pk:
        raise SocialError("own", _("You cannot block yourself."))
    with transaction.atomic():
        Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        Follow.objects.filter(Q(follower=blocker, followed=blocked)
                              | Q(follower=blocked, followed=blocker)).delete()


def block_delete(*, blocker: User, blocked: User) -> None:
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def profile_update(*, user: User, bio: str, country: str) -> None:
    """The profile's bio (held to chat's rules and mute) and flag ('' for none)."""
    bio = bio.strip()
    if len(bio) > BIO_LENGTH:
        raise SocialError("too_long", _("A bio has at most %(count)d characters.")
                          % {"count": BIO_LENGTH})
    if bio and bio != user.bio:
        refusal = moderation.mute_words(user=user) or moderation.text_refusal(
            user=user, text=bio.replace("\n", " ").replace("\r", " "))
        if refusal is not None:
            raise SocialError("refused", refusal)
    if country and country not in COUNTRY_CODES:
        raise SocialError("country", _("Choose a country from the list."))
    User.objects.filter(pk=user.pk).update(bio=bio, country=country)
    user.bio, user.country = bio, country


# --- reads ----------------------------------------------------------------------------------

def blocked_between(*, first_id: int, second_id: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(Q(blocker_id=first_id, blocked_id=second_id)
                                | Q(blocker_id=second_id, blocked_id=first_id)).exists()


def blocked_either_way(*, user_id: int) -> set[int]:
    """The players `user_id` blocked and those who blocked them: nothing passes between."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id")
    return {other for pair in rows for other in pair if other != user_id}


def blocked_among(*, user_ids: list[int]) -> dict[int, set[int]]:
    """For each of `user_ids`, the others of them a block (either way) keeps them from."""
    apart: dict[int, set[int]] = {}
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
        "blocker_id", "blocked_id")
    for blocker, blocked in rows:
        apart.setdefault(blocker, set()).add(blocked)
        apart.setdefault(blocked, set()).add(blocker)
    return apart


def is_following(*, follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def is_blocking(*, blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def friend_ids(*, user_id: int) -> set[int]:
    """Those `user_id` follows who follow them back."""
    followed = Follow.objects.filter(follower_id=user_id).values("followed_id")
    return set(Follow.objects.filter(followed_id=user_id, follower_id__in=followed)
               .values_list("follower_id", flat=True))


def are_friends(*, first_id: int, second_id: int) -> bool:
    return (is_following(follower_id=first_id, followed_id=second_id)
            and is_following(follower_id=second_id, followed_id=first_id))


def friends(*, user_id: int) -> list[User]:
    return list(User.objects.filter(pk__in=friend_ids(user_id=user_id), is_active=True)
                .order_by("username"))
