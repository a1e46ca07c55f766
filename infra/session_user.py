"""The user of a socket's session, read on the site's database threads.

Channels' `AuthMiddleware` reads it on Channels' one shared database thread, with a health
check of that thread's connection each time: every handshake of a process queued there
behind every other. A burst of handshakes (the players of an arena's wave opening their games
at once) then outlasted daphne's handshake timeout, and the clients were cut off before their
sockets opened. `SessionUserMiddleware` reads the user with `db_call`, on the pool of database
threads that every consumer's work uses (`infra.db_threads`), through Django's own
`auth.get_user`: the session's user, its password hash (and the fallback secrets), an active
account; a session it refuses is flushed, as for a page.

    CookieMiddleware(SessionMiddleware(SessionUserMiddleware(consumer)))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from channels.middleware import BaseMiddleware
from django.contrib import auth

from infra.db_threads import db_call


@dataclass
class _SessionHolder:
    """What `auth.get_user` reads of a request: its session."""

    session: Any


def _session_user(session: Any) -> Any:
    return auth.get_user(_SessionHolder(session))  # type: ignore[arg-type]


class SessionUserMiddleware(BaseMiddleware):  # type: ignore[misc]
    """Puts the session's user (or an anonymous user) in `scope["user"]`; needs Channels'
    `SessionMiddleware` above it."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if "session" not in scope:
            raise ValueError("SessionUserMiddleware needs SessionMiddleware above it")
        scope = dict(scope)
        scope["user"] = await db_call(_session_user, scope["session"])
        return await super().__call__(scope, receive, send)
