"""The lobby socket, `/ws/lobby/` (logged-in players): thin — validate, call a service.

Protocol (JSON objects):

- The server sends `{"type": "lobby", "pools": [{"key": "3+2", "waiting": 2}, ...],
  "seeks": [{"id", "player", "player_id", "rating", "provisional", "time_control",
  "rated"}, ...], "tables": [{"token", "url", "creator", "players", "time_control",
  "correspondence", "rated", "seats": [{"index", "kind", "player", "rating", "ai_level",
  ...}]}, ...], "me":
  {"searching": {"pool", "since_ms", "fill_ai_at_ms"} | null, "table": {...} | null,
  "can_start", "challenges_in": [...], "challenges_out": [tokens],
  "live_match": {"id", "url"} | null}, "server_time_ms"}` (`games.matchmaking.schemas`) on
  connect, after every change that concerns it (any process), and on its periodic tick when
  something changed.
- `{"type": "pools", "pools": [...]}` when the numbers of waiting players change.
- When the player is paired (pool, seek or challenge, in any process):
  `{"type": "paired", "match_id": N, "url": "/game/N/"}`; also on connect if the player's
  live match began moments ago (paired while the page was loading).
- The client sends `{"type": "pool_join", "pool": "3+2"}`, `{"type": "pool_leave"}`,
  `{"type": "seek_create", "time_control": "5+3", "rated": true}`,
  `{"type": "seek_accept", "id": N}`, `{"type": "seek_cancel", "id": N}`, `{"type": "sync"}`;
  for tables (`games.matchmaking.tables`): `{"type": "table_create", "players": 4,
  "time_control": "untimed", "rated": false, "public": true}`, `{"type": "table_join",
  "table": TOKEN, "seat": N | null}`, `{"type": "table_leave" | "table_start", "table": TOKEN}`,
  `{"type": "table_fill_ai", "table": TOKEN, "seat": N, "level": N}`,
  `{"type": "table_seat_clear", "table": TOKEN, "seat": N}`, and, after a wait in a table
  pool, `{"type": "pool_fill_ai"}`.
  Success: `{"type": "ok", "for": "<type>"}` then the new `lobby`; refusal:
  `{"type": "error", "code": "...", "detail": "<translated message>", "for": "<type>"}`.

While open, the socket renews its pool entry and seeks every wave interval and asks for a
wave of the pool its player waits in (a wave runs at most once per interval whatever the
number of sockets and processes asking). Closing it removes its entry and seeks. The site's
per-connection limits apply (`infra.ws_limits`: frame size, message rate).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from pydantic import ValidationError

from accounts.languages import language_for_scope
from games.matchmaking import errors, selectors, services, tables
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.schemas import lobby_message
from infra.db_threads import db_call
from infra.json_text import json_text
from infra.sockets import SiteSocket

# A socket that is not searching re-reads the lobby every this many ticks (it is told of
# changes to seeks and challenges at once; this catches a message the layer dropped).
REFRESH_EVERY_TICKS = 5
logger = logging.getLogger(__name__)


class LobbyConsumer(SiteSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "lobby"
    ticker: asyncio.Task[None] | None = None
    groups_joined: tuple[str, ...] = ()

    async def connect(self) -> None:
        user = self.scope.get("user")
        # Refusals are read by the player: in the language their pages are in.
        self.language = language_for_scope(self.scope)
        await self.accept()
        if user is None or not user.is_authenticated:
            with translation.override(self.language):
                message = _("Log in to play rated games.")
            await self._error(errors.NOT_LOGGED_IN, message, None)
            await self.close(code=4401)
            return
        if user.is_bot:
            with translation.override(self.language):
                message = _("A bot account plays only through the API.")
            await self._error(errors.BOT_ACCOUNT, message, None)
            await self.close(code=4403)
            return
        self.user = user
        self.last_sent = ""
        self.groups_joined = (services.LOBBY_GROUP, services.user_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        fresh = await db_call(self._adopt)
        if fresh is not None:
            await self._send({"type": "paired", "match_id": fresh,
                              "url": await db_call(selectors.match_page_url, match_id=fresh)})
        await self._send_lobby(force=True)
        self.ticker = asyncio.create_task(self._tick())

    def _adopt(self) -> int | None:
        services.lobby_heartbeat(user=self.user, channel_name=self.channel_name)
        tables.table_seats_renew(user=self.user)
        return selectors.fresh_match_id(user=self.user)

    async def disconnect(self, code: int) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.ticker
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.groups_joined:
            await db_call(services.lobby_socket_closed, channel_name=self.channel_name)

    async def _tick(self) -> None:
        """Keep this socket's entry and seeks alive and ask for a wave of its pool; refresh
        the lobby (pool counts, a missed broadcast) every tick while searching, else now and
        then."""
        ticks = 0
        while True:
            await asyncio.sleep(settings.MATCHMAKING_WAVE_SECONDS)
            ticks += 1
            try:
                searching = await db_call(self._beat)
                if searching or ticks % REFRESH_EVERY_TICKS == 0:
                    await self._send_lobby()
            except Exception:  # one failed tick (a database hiccup) must not end the socket
                logger.exception("lobby tick failed")

    def _beat(self) -> bool:
        pool = services.lobby_heartbeat(user=self.user, channel_name=self.channel_name)
        tables.table_seats_renew(user=self.user)
        tables.tables_expire()
        if pool is not None:
            services.pool_wave(pool=pool)
        return pool is not None

    # --- from the client ------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.groups_joined:
            return
        if text_data is None:  # a binary frame (its size was checked by WebSocketLimits)
            await self._not_understood()
            return
        try:
            message = lobby_message.validate_json(text_data)
        except ValidationError:
            await self._not_understood()
            return
        if message.type != "sync":
            try:
                await db_call(self._act, message)
            except MatchmakingError as error:
                await self._error(error.code, error.message, message.type)
                await self._send_lobby()
                return
            await self._send({"type": "ok", "for": message.type})
        await self._send_lobby(force=True)

    def _act(self, message: Any) -> None:
        with translation.override(self.language):
            self._call(message)

    def _call(self, message: Any) -> None:
        user, channel = self.user, self.channel_name
        if message.type == "pool_join":
            services.pool_join(user=user, pool=message.pool, channel_name=channel)
        elif message.type == "pool_leave":
            services.pool_leave(user=user)
        elif message.type == "seek_create":
            services.seek_create(user=user, time_control=message.time_control,
                                 rated=message.rated, channel_name=channel)
        elif message.type == "seek_cancel":
            services.seek_cancel(user=user, seek_id=message.id)
        elif message.type == "seek_accept":
            services.seek_accept(user=user, seek_id=message.id)
        elif message.type == "pool_fill_ai":
            tables.pool_fill_ai(user=user)
        elif message.type == "table_create":
            tables.table_create(user=user, players=message.players,
                                time_control=message.time_control, rated=message.rated,
                                public=message.public)
        elif message.type == "table_join":
            tables.table_join(user=user, token=message.table, seat=message.seat)
        elif message.type == "table_leave":
            tables.table_leave(user=user, token=message.table)
        elif message.type == "table_fill_ai":
            tables.table_fill_ai(user=user, token=message.table, seat=message.seat,
                                 level=message.level)
        elif message.type == "table_seat_clear":
            tables.table_seat_clear(user=user, token=message.table, seat=message.seat)
        elif message.type == "table_start":
            tables.table_start(user=user, token=message.table)

    # --- from the groups ------------------------------------------------------------------

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self._send_lobby()

    async def lobby_pools(self, event: dict[str, Any]) -> None:
        await self._send({"type": "pools", "pools": event["pools"]})

    async def user_changed(self, event: dict[str, Any]) -> None:
        await self._send_lobby()

    async def user_paired(self, event: dict[str, Any]) -> None:
        await self._send({"type": "paired", "match_id": event["match_id"], "url": event["url"]})

    # --- to the client --------------------------------------------------------------------

    def _lobby(self) -> dict[str, Any]:
        now = timezone.now()
        return {
            "type": "lobby",
            "pools": selectors.pools(now=now),
            "seeks": selectors.lobby_seeks(now=now),
            "tables": selectors.lobby_tables(now=now),
            "me": selectors.user_lobby_state(user=self.user, now=now),
        }

    async def _send_lobby(self, force: bool = False) -> None:
        lobby = await db_call(self._lobby)
        text = json_text(lobby, sort_keys=True)
        if force or text != self.last_sent:
            self.last_sent = text
            lobby["server_time_ms"] = int(timezone.now().timestamp() * 1000)
            await self._send(lobby)

    async def _error(self, code: str, detail: str, about: str | None) -> None:
        await self._send({"type": "error", "code": code, "detail": detail, "for": about})

    async def _not_understood(self) -> None:
        with translation.override(self.language):
            detail = _("The server did not understand that.")
        await self._error(errors.BAD_MESSAGE, detail, None)
        await self.ws_strike()

    async def _send(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json_text(content))
