"""Keep `User.last_seen` up to date cheaply: at most one UPDATE per user every few minutes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import empty

from accounts.services import LAST_SEEN_RESOLUTION, user_touch_last_seen


def _due(user: Any) -> bool:
    """Whether the user is logged in and their `last_seen` is older than the resolution: a
    check in memory, on the user the request has loaded anyway."""
    if user is None or not user.is_authenticated or user.pk is None:
        return False
    return user.last_seen is None or timezone.now() - user.last_seen >= LAST_SEEN_RESOLUTION


class LastSeenMiddleware:
    """After the authentication middleware; works in both the sync and the async stack (the
    site runs under daphne, where a sync-only middleware would cost a thread hop on every
    request). It looks at the user after the view, so a log-in or log-out is reflected."""

    sync_capable = True
    async_capable = True

    def __init__(
        self, get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
    ) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if _due(user):
            user_touch_last_seen(user=user)  # type: ignore[arg-type]
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        response = await self.get_response(request)  # type: ignore[misc]
        user = await _request_user(request)
        if _due(user):
            await sync_to_async(user_touch_last_seen)(user=user)
        return response  # type: ignore[no-any-return]


async def _request_user(request: HttpRequest) -> Any:
    """The request's user without a second query when the view has loaded it already."""
    lazy = request.__dict__.get("user")
    if lazy is None:
        return None
    loaded = getattr(lazy, "_wrapped", lazy)
    if loaded is not empty:
        return loaded
    auser = getattr(request, "auser", None)
    return await auser() if auser is not None else None
