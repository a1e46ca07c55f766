"""The site-wide socket: announcements from the staff ("the server restarts in 5 minutes")."""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from yourtrumps_site.ws_limits import WebSocketLimits

SITE_GROUP = "site"
MAX_ANNOUNCEMENT_LENGTH = 500


class SiteConsumer(WebSocketLimits, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        await self.channel_layer.group_add(SITE_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(SITE_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            await self.send_json({"type": "error", "code": "bad_json", "detail": "not JSON"})
            return
        if not isinstance(message, dict) or message.get("type") != "announce":
            await self.send_json(
                {"type": "error", "code": "unknown_type", "detail": "expected type 'announce'"}
            )
            return
        user = self.scope.get("user")
        if user is None or not user.is_staff:
            await self.send_json(
                {"type": "error", "code": "forbidden", "detail": "only staff may announce"}
            )
            return
        text = message.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ANNOUNCEMENT_LENGTH:
            await self.send_json(
                {
                    "type": "error",
                    "code": "invalid",
                    "detail": f"text must be 1 to {MAX_ANNOUNCEMENT_LENGTH} characters",
                }
            )
            return
        await self.channel_layer.group_send(
            SITE_GROUP, {"type": "site.announcement", "text": text.strip()}
        )

    async def site_announcement(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "announcement", "text": event["text"]})
