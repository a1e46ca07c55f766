"""Personal API tokens: made, listed, revoked, and found by their text.

A token's text is `yt_` and 40 random URL-safe characters, shown to its owner once, when it is
made; the database keeps only its SHA-256 (a random secret of 240 bits needs no slow hash: no
dictionary can guess it), so a copy of the database lets nobody act as anyone. Its scopes
(`TokenScope`) say what it may do; the API checks them on each call (`games.api.auth`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ratelimit
from accounts.models import ApiToken, TokenScope, User

TOKEN_PREFIX = "yt_"
MAX_TOKENS = 20
# `last_used_at` is written at most this often per token.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def token_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class NewToken:
    """A token just made: `text` is shown once and never stored."""

    token: ApiToken
    text: str


def token_create(*, user: User, name: str, scopes: list[str],
                 now: datetime | None = None) -> NewToken:
    """A new token of `user` with these scopes. Raises ValidationError (keyed by field) for
    a bad name or scope, too many tokens, or too many made lately."""
    now = now or timezone.now()
    name = name.strip()
    if not 1 <= len(name) <= 60:
        raise ValidationError({"name": [_("Give the token a name of 1 to 60 characters.")]})
    allowed = set(TokenScope.values)
    if not scopes or any(scope not in allowed for scope in scopes):
        raise ValidationError({"scopes": [_("Choose at least one scope.")]})
    limit, window = settings.API_RATE_LIMITS["token_create"]
    wait = ratelimit.hit(key=f"token_create:{user.pk}", limit=limit, window=window)
    if wait is not None:
        raise ValidationError(ratelimit.wait_message(wait))
    text = TOKEN_PREFIX + secrets.token_urlsafe(30)
    with transaction.atomic():
        # The user's row lock counts their tokens once, however many requests come at once.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            raise ValidationError(
                _("You have %(count)d tokens: revoke one first.") % {"count": MAX_TOKENS})
        token = ApiToken.objects.create(
            user=user, name=name, digest=token_digest(text), prefix=text[:8],
            scopes=" ".join(scope for scope in TokenScope.values if scope in scopes),
            created_at=now,
        )
    return NewToken(token=token, text=text)


def token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke one of the user's tokens at once. False if they have no such token."""
    return ApiToken.objects.filter(user=user, pk=token_id).delete()[0] > 0


def token_list(*, user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def token_authenticate(*, text: str, now: datetime | None = None) -> ApiToken | None:
    """The token of this text, with its active user, or None; notes when it was used."""
    if not text.startswith(TOKEN_PREFIX) or len(text) > 100:
        return None
    token = (ApiToken.objects.select_related("user")
             .filter(digest=token_digest(text), user__is_active=True).first())
    if token is None:
        return None
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
