"""A socket lives no longer than the log-in it was opened with.

Every socket of a signed-in user joins two channel-layer groups: one of its session and one
of its user. When the session ends (log-out) its session's sockets are told; when the user's
log-ins all end (a password change or reset, the account deleted or deactivated by staff)
all the user's sockets are. A told socket sends `{"type": "error", "code":
"session_ended", ...}` and closes with code 4401 (as HTTP's 401), in whichever process it
runs: the layer is Redis pub/sub in production. A client that reconnects is then whoever its
cookie now says (a guest, or the same player after a password change in this tab, whose
session Django kept).

A log-out can happen while a socket is connecting: after joining its groups the socket reads
its session again, with Django's own checks (the session's user, its password hash, the
account still active), and closes if that no longer holds. Either the socket read the change
or it had joined the group before the news was sent.

The news is sent once the change is committed (`transaction.on_commit`); a failure to send is
logged, not raised (the log-out or the password change has happened).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, pre_save
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts.signals import users_deactivated
from infra.db_threads import db_call
from infra.group_send import group_send_all
from infra.json_text import json_text

CLOSE_SESSION_ENDED = 4401  # as HTTP's 401: log in again
SESSION_ENDED = "session_ended"
EVENT = "auth.ended"  # handled by `auth_ended` below


def session_group(session_key: str) -> str:
    """The group of a session's sockets. The key is hashed: group names travel through
    Redis, and a session key is a credential."""
    digest = hashlib.sha256(f"session-sockets:{session_key}".encode()).hexdigest()[:40]
    return f"auth-session-{digest}"


def user_group(user_id: int) -> str:
    return f"auth-user-{user_id}"


def _send(group: str) -> None:
    # A send that fails is logged: the change is made, the sockets find out at their next
    # connect.
    group_send_all([(group, {"type": EVENT})])


def session_sockets_close(*, session_key: str) -> None:
    """Close every socket of this session, in every process, once the change commits."""
    group = session_group(session_key)
    transaction.on_commit(lambda: _send(group))


def user_sockets_close(*, user_id: int) -> None:
    """Close every socket of every session of this user, once the change commits."""
    group = user_group(user_id)
    transaction.on_commit(lambda: _send(group))


# --- what ends a log-in -----------------------------------------------------------------------


def _on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        session_sockets_close(session_key=session_key)


def _on_user_saved(sender: Any, instance: Any, raw: bool = False,
                   update_fields: Any = None, **kwargs: Any) -> None:
    """A new password (changed, reset, or set by staff) or a deactivation ends every log-in
    of the account: Django refuses the old sessions at their next request, and this closes
    their sockets now."""
    if raw or instance.pk is None or instance._state.adding:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return  # the usual saves (last log-in, language, e-mail) read nothing more
    before = sender.objects.filter(pk=instance.pk).values("password", "is_active").first()
    if before is None:
        return
    if before["password"] != instance.password or (before["is_active"] and
                                                   not instance.is_active):
        user_sockets_close(user_id=instance.pk)


def _on_user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    user_sockets_close(user_id=instance.pk)


def _on_users_deactivated(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    for user_id in user_ids:
        user_sockets_close(user_id=user_id)


def connect_signals() -> None:
    user_model = auth.get_user_model()
    users_deactivated.connect(_on_users_deactivated,
                              dispatch_uid="session_sockets.deactivated")
    user_logged_out.connect(_on_logged_out, dispatch_uid="session_sockets.logged_out")
    pre_save.connect(_on_user_saved, sender=user_model, dispatch_uid="session_sockets.saved")
    post_delete.connect(_on_user_deleted, sender=user_model,
                        dispatch_uid="session_sockets.deleted")


# --- the consumers' side ----------------------------------------------------------------------


def _still_signed_in(session_key: str, user_id: int) -> bool:
    """Whether the session, read again, still signs this user in: Django's checks (the
    session's user, its password hash, an active account), without the changes
    `auth.get_user` makes to a session it refuses (the next page does those)."""
    from importlib import import_module

    from django.conf import settings
    from django.utils.crypto import constant_time_compare

    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        stored_id = auth.get_user_model()._meta.pk.to_python(store[auth.SESSION_KEY])
        backend = auth.load_backend(store[auth.BACKEND_SESSION_KEY])
    except (KeyError, ImportError, ValueError):
        return False
    if stored_id != user_id:
        return False
    user = backend.get_user(stored_id)  # None for an inactive or deleted account
    session_hash = store.get(auth.HASH_SESSION_KEY) or ""
    return user is not None and constant_time_compare(session_hash,
                                                      user.get_session_auth_hash())


class SessionBoundSocket:
    """A mixin for the site's consumers (before the Channels class): the socket of a
    signed-in user joins its session's and its user's groups and closes when told."""

    groups: list[str]

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        scope = self.scope  # type: ignore[attr-defined]
        user, session = scope.get("user"), scope.get("session")
        self.bound_user_id = None
        if user is not None and user.is_authenticated and session is not None:
            session_key = session.session_key
            if session_key:
                self.bound_user_id = user.pk
                self.bound_session_key = session_key
                # Channels joins `groups` before `connect` and leaves them on disconnect.
                self.groups = [*getattr(self, "groups", []), session_group(session_key),
                               user_group(user.pk)]
        await super().websocket_connect(message)  # type: ignore[misc]
        if self.bound_user_id is not None and not getattr(self, "ws_gone", False):
            still = await db_call(_still_signed_in, self.bound_session_key,
                                  self.bound_user_id)
            if not still:
                await self.auth_ended({"type": EVENT})

    async def auth_ended(self, event: dict[str, Any]) -> None:
        if getattr(self, "ws_gone", False):
            return
        with translation.override(_language(self.scope)):  # type: ignore[attr-defined]
            detail = str(gettext_lazy("You have been logged out."))
        await self.send(text_data=_error_text(SESSION_ENDED, detail))  # type: ignore[attr-defined]
        await self.close(code=CLOSE_SESSION_ENDED)  # type: ignore[attr-defined]


def _language(scope: dict[str, Any]) -> str:
    from accounts.languages import language_for_scope

    return language_for_scope(scope)


def _error_text(code: str, detail: str) -> str:
    return json_text({"type": "error", "code": code, "detail": detail, "for": None,
                       "version": None})
