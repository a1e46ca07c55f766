"""Keep `User.last_seen` up to date cheaply: at most one UPDATE per user every few minutes."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.services import user_touch_last_seen


class LastSeenMiddleware:
    """After the authentication middleware. The check against the in-memory `last_seen` of
    the already-loaded user costs nothing; the write happens once per LAST_SEEN_RESOLUTION."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # After the view: a log-in or log-out in this request is already reflected.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.pk is not None:
            user_touch_last_seen(user=user)
        return response
