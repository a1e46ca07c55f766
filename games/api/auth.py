"""Who calls the API: `Authorization: Bearer <token>` (a personal token of
`accounts.tokens`), or nobody, for the public reads.

Every call is counted against `API_RATE_LIMITS["request"]`, per token (without one, per
client address); failed authentications per client address too, so that nobody can try
tokens by the thousand. A token that is not accepted is refused outright (401), even where
no token is needed: a client that sends one means to be someone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

from accounts import ratelimit
from accounts.models import ApiToken, User
from accounts.tokens import token_authenticate
from games.api import errors
from games.api.errors import ApiError
from infra.db_threads import db_call


@dataclass(frozen=True, slots=True)
class Caller:
    """The caller of one request: a token and its user, or nobody (`token` None)."""

    token: ApiToken | None

    @property
    def user(self) -> User | None:
        return self.token.user if self.token is not None else None


def _limit(key: str, action: str) -> None:
    limit, window = settings.API_RATE_LIMITS[action]
    wait = ratelimit.hit(key=f"api:{action}:{key}", limit=limit, window=window)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ApiError(429, errors.RATE_LIMITED,
                       f"too many requests: wait {seconds} s", retry_after=seconds)


def _bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _space, text = header.partition(" ")
    if scheme.lower() != "bearer" or not text.strip():
        raise ApiError(401, errors.UNAUTHORIZED,
                       "send the token as 'Authorization: Bearer <token>'")
    return text.strip()


def caller_find(request: HttpRequest) -> Caller:
    """The caller of the request, counted against the rate limits (on a database thread)."""
    address = ratelimit.client_address(request)
    text = _bearer(request)
    if text is None:
        _limit(address, "request")
        return Caller(token=None)
    token = token_authenticate(text=text)
    if token is None:
        _limit(address, "auth_failure")
        raise ApiError(401, errors.UNAUTHORIZED, "this token is not valid (revoked or mistyped)")
    _limit(f"token-{token.pk}", "request")
    return Caller(token=token)


class TokenAuth:
    """The authentication of every operation, for django-ninja: it admits a token or nobody
    (each operation then asks for the scope it needs, `require`), and describes the bearer
    scheme in the OpenAPI schema."""

    openapi_security_schema = {"type": "http", "scheme": "bearer"}
    is_async = True

    async def __call__(self, request: HttpRequest) -> Caller:
        return await db_call(caller_find, request)


def caller_of(request: HttpRequest) -> Caller:
    caller = getattr(request, "auth", None)
    assert isinstance(caller, Caller)
    return caller


def require(request: HttpRequest, scope: str) -> ApiToken:
    """The request's token, which must have `scope` (401 without a token, 403 without it)."""
    token = caller_of(request).token
    if token is None:
        raise ApiError(401, errors.UNAUTHORIZED,
                       f"this call needs a token with the scope {scope}")
    if scope not in token.scope_list:
        raise ApiError(403, errors.MISSING_SCOPE, f"this token lacks the scope {scope}")
    return token
