"""django-axes hooks: count failed log-ins per account, however the account was named."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from accounts.selectors import user_find_for_login


def lockout_username(request: HttpRequest, credentials: dict[str, object] | None = None) -> str:
    """The name axes counts failures under: the account's username when the name or address
    given belongs to one (so `Anna`, `anna` and `anna@example.com` share one counter), else
    the given name in lower case."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        given = credentials.get(field)
    else:
        given = getattr(request, "data", request.POST).get(field)
    given = str(given or "").strip()
    if not given:
        return ""
    user = user_find_for_login(identifier=given)
    return (user.username if user is not None else given).lower()
