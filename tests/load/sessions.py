"""Session cookies for socket clients, made straight in the session store (no log-in page)."""

from __future__ import annotations

from typing import Any


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
