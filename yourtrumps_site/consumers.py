"""The site-wide socket, open on every page: announcements from the staff ("the server restarts
in 5 minutes") to all, and a signed-in player's notifications to their own pages.

The server sends `{"type": "announcement", "text"}`; to a signed-in player, on connect and
whenever another page of theirs marked some read, `{"type": "notifications", "unread": N,
"items": [...]}` (the newest, `notifications.selectors.notification_item`), and
`{"type": "notification", "item": {...}, "unread": N}` for each new one, in the language of
the socket's pages, and the player's friends list (`yourtrumps_site.friends_socket`). The staff send
`{"type": "announce", "text"}`.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.languages import language_for_scope
from accounts.validators import has_control_characters
from infra.db_threads import db_call
from infra.json_text import json_value
from infra.sockets import SiteSocket
from notifications import selectors as notification_selectors
from notifications.services import notify_group
from yourtrumps_site.friends_socket import FriendsSocket

SITE_GROUP = "site"
MAX_ANNOUNCEMENT_LENGTH = 500
NOT_UNDERSTOOD_CODES = frozenset({"bad_json", "unknown_type"})  # junk, not a refused request


class SiteConsumer(FriendsSocket, SiteSocket, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "site"
    user_id: int | None = None

    async def connect(self) -> None:
        await self.channel_layer.group_add(SITE_GROUP, self.channel_name)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.user_id = user.pk
            self.language = language_for_scope(self.scope)
            await self.channel_layer.group_add(notify_group(user.pk), self.channel_name)
        await self.accept()
        if self.user_id is not None:
            await self._send_notifications()
            await self.friends_join()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(SITE_GROUP, self.channel_name)
        if self.user_id is not None:
            await self.channel_layer.group_discard(notify_group(self.user_id), self.channel_name)
            await self.friends_leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # A refusal is read by a person: in the language of their pages.
        with translation.override(language_for_scope(self.scope)):
            text, refusal = self._announcement(text_data)
        if refusal is not None:
            code, detail = refusal
            await self.send_json({"type": "error", "code": code, "detail": detail})
            if code in NOT_UNDERSTOOD_CODES:
                await self.ws_strike()
            return
        await self.channel_layer.group_send(
            SITE_GROUP, {"type": "site.announcement", "text": text}
        )

    def _announcement(self, text_data: str | None) -> tuple[str, tuple[str, str] | None]:
        """The text to announce, or the (code, translated words) of why it is refused."""
        try:
            message = json_value(text_data or "")
        except ValueError:
            return "", ("bad_json", _("The server did not understand that."))
        if not isinstance(message, dict) or message.get("type") != "announce":
            return "", ("unknown_type", _("The server did not understand that."))
        user = self.scope.get("user")
        if user is None or not user.is_staff:
            return "", ("forbidden", _("Only the staff may make announcements."))
        text = message.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ANNOUNCEMENT_LENGTH:
            words = ngettext("An announcement has 1 to %(count)d character.",
                             "An announcement has 1 to %(count)d characters.",
                             MAX_ANNOUNCEMENT_LENGTH)
            return "", ("invalid", words % {"count": MAX_ANNOUNCEMENT_LENGTH})
        if has_control_characters(text):
            return "", ("invalid", _("An announcement cannot hold control characters."))
        return text.strip(), None

    async def site_announcement(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "announcement", "text": event["text"]})

    # --- the player's notifications ---------------------------------------------------------

    def _newest(self) -> dict[str, Any]:
        assert self.user_id is not None
        with translation.override(self.language):
            rows = notification_selectors.notifications_newest(user_id=self.user_id)
            items = notification_selectors.notification_items(rows)
        return {"type": "notifications", "items": items,
                "unread": notification_selectors.unread_count(user_id=self.user_id)}

    def _one(self, notification_id: int) -> dict[str, Any] | None:
        notification = notification_selectors.notification_get(notification_id=notification_id)
        if notification is None or notification.user_id != self.user_id:
            return None
        with translation.override(self.language):
            item = notification_selectors.notification_item(notification)
        return {"type": "notification", "item": item,
                "unread": notification_selectors.unread_count(user_id=notification.user_id)}

    async def _send_notifications(self) -> None:
        await self.send_json(await db_call(self._newest))

    async def notify_new(self, event: dict[str, Any]) -> None:
        message = await db_call(self._one, int(event["id"]))
        if message is not None:
            await self.send_json(message)

    async def notify_refresh(self, event: dict[str, Any]) -> None:
        await self._send_notifications()
