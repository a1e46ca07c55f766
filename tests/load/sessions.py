"""The people socket clients connect as: users made in bulk through the ORM (no sign-up
page) and session cookies for them, made straight in the session store (no log-in page)."""

from __future__ import annotations

from typing import Any


def create_users(count: int, prefix: str) -> list[Any]:
    """`count` new users, named `prefix` and a number, with no usable password."""
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    users = []
    for i in range(count):
        user = user_model(username=f"{prefix}{i}", email=f"{prefix}{i}@load.invalid")
        user.set_unusable_password()
        users.append(user)
    user_model.objects.bulk_create(users, batch_size=500)
    return list(user_model.objects.filter(username__startswith=prefix).order_by("pk"))


def session_cookie(user: Any = None, guest_id: str = "") -> str:
    """A `Cookie` header value of a new session logged in as `user` (or a guest)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    if user is not None:
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.UsernameOrEmailBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if guest_id:
        session["guest_id"] = guest_id
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
