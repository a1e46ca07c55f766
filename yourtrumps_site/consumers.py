"""The site-wide socket: announcements from the staff ("the server restarts in 5 minutes")."""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from yourtrumps_site.i18n import language_for_scope
from yourtrumps_site.sockets import SiteSocket

SITE_GROUP = "site"
MAX_ANNOUNCEMENT_LENGTH = 500
NOT_UNDERSTOOD_CODES = frozenset({"bad_json", "unknown_type"})  # junk, not a refused request


class SiteConsumer(SiteSocket, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "site"
    async def connect(self) -> None:
        await self.channel_layer.group_add(SITE_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(SITE_GROUP, self.channel_name)

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
            message = json.loads(text_data or "")
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
        return text.strip(), None

    async def site_announcement(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "announcement", "text": event["text"]})
