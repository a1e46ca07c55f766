"""The session of a socket's cookie and its user, the user read on the site's database threads.

Channels' `AuthMiddleware` reads it on Channels' one shared database thread, with a health
check of that thread's connection each time: every handshake of a process queued there
behind every other. A burst of handshakes (the players of an arena's wave opening their games
at once) then outlasted daphne's handshake timeout, and the clients were cut off before their
sockets opened. `SessionUserMiddleware` reads the user with `db_call`, on the pool of database
threads that every consumer's work uses (`infra.db_threads`), through Django's own
`auth.get_user`: the session's user, its password hash (and the fallback secrets), an active
account; a session it refuses is flushed, as for a page.

The session is the cookie's, as Channels' `SessionMiddleware` would give, without that
middleware's wrapping of every frame the socket sends: it saves a changed session on an HTTP
response's start only, which a socket never sends, and asked the session on each frame whether
it had changed (about 2 % of a socket server's CPU under 1,000 duels, docs/reliability.md).
A socket cannot set a cookie, so its session is never saved from here.

    CookieMiddleware(SessionUserMiddleware(consumer))
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib import auth

from infra.db_threads import db_call


@dataclass
class _SessionHolder:
    """What `auth.get_user` reads of a request: its session."""

    session: Any


def _session_user(session: Any) -> Any:
    return auth.get_user(_SessionHolder(session))  # type: ignore[arg-type]


class SessionUserMiddleware(BaseMiddleware):  # type: ignore[misc]
    """Puts the cookie's session in `scope["session"]` and its user (or an anonymous user) in
    `scope["user"]`; needs Channels' `CookieMiddleware` above it."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if "cookies" not in scope:
            raise ValueError("SessionUserMiddleware needs CookieMiddleware above it")
        store = import_module(settings.SESSION_ENGINE).SessionStore
        scope = dict(scope)
        scope["session"] = store(scope["cookies"].get(settings.SESSION_COOKIE_NAME))
        scope["user"] = await db_call(_session_user, scope["session"])
        return await super().__call__(scope, receive, send)
