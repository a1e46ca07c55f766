"""The tournament socket, `/ws/tournament/<token>/` (anyone may watch; a participant's open
socket keeps them pairable): thin — read, renew, forward.

- The server sends `{"type": "tournament", ...}` (`schemas.TournamentState`: status, the
  instants of the start and the end, the standings, the podium at the end, the games in
  progress, the reader's own state) on connect, on `sync`, and at most once a second while
  the arena changes (games paired or scored, players joining or leaving: the group
  `tournament-<id>`, from any process).
- `{"type": "paired", "url": "/game/N/"}` when the reader's game of this arena is paired (or
  was, moments before the socket opened): the page goes there. Only the player's own pages
  hear it (their group, `core.tournament_player_group`): a wave of a 500-player arena tells
  the pages it paired, not all 500.
- The client sends `{"type": "sync"}` (its reconnecting socket's ping); anything else is
  refused as not understood. Joining, pausing, withdrawing and berserk are forms (`views`).
- `?quiet=1` (the strip of a tournament game's page, which shows no standings): the socket
  keeps its player pairable and sends `paired`, and the state only in answer to a `sync`: a
  player in a game is not sent the standings every second, and the socket is not in the
  arena's group, so its server is not told of every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from pydantic import ValidationError

from accounts.languages import language_for_scope
from games.matchmaking.selectors import match_page_url
from games.play.models import Status
from games.tournaments import errors, presence, selectors, services
from games.tournaments.models import TournamentGame
from games.tournaments.schemas import tournament_message
from infra.db_threads import db_call
from infra.json_text import json_text
from infra.sockets import SiteSocket

FLUSH_SECONDS = 1.0
FRESH_GAME_SECONDS = 10
logger = logging.getLogger(__name__)


class TournamentConsumer(SiteSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "tournament"
    ticker: asyncio.Task[None] | None = None
    groups: tuple[str, ...] = ()
    serving = False  # set once the tournament is found and the socket is in its groups

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        token = self.scope["url_route"]["kwargs"]["token"]
        tournament = await db_call(selectors.tournament_get, token=token)
        await self.accept()
        if tournament is None:
            await self.close(code=4404)
            return
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.tournament = tournament
        self.quiet = b"quiet=1" in self.scope.get("query_string", b"").split(b"&")
        self.dirty = False
        self.fresh_after = 0.0
        self.groups = (
            *(() if self.quiet else (services.tournament_group(tournament.pk),)),
            *(() if self.user is None
              else (services.tournament_player_group(tournament.pk, self.user.pk),)))
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.serving = True
        fresh = await db_call(self._renew_and_fresh_game)
        if fresh is not None:
            await self._send({"type": "paired", "url": fresh})
        if not self.quiet:
            await self._send_state()
        self.ticker = asyncio.create_task(self._tick())

    async def disconnect(self, code: int) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.ticker
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    def _renew_and_fresh_game(self) -> str | None:
        """Keep the participant pairable; their game of this arena if it began moments ago
        (paired while the page was loading)."""
        if self.user is None:
            return None
        services.participant_presence_renew(tournament_id=self.tournament.pk, user=self.user)
        game = TournamentGame.objects.filter(
            Q(user_a=self.user) | Q(user_b=self.user), tournament=self.tournament,
            scored=False, match__status__in=[Status.TRUMPS, Status.PLAYING],
            created_at__gte=timezone.now() - timedelta(seconds=FRESH_GAME_SECONDS),
        ).order_by("-pk").first()
        return None if game is None else match_page_url(match_id=game.match_id)

    async def _tick(self) -> None:
        """Send the state when the arena changed (at most once a second), and renew the
        participant's presence every third of its lease (with the process's other pages,
        `presence`)."""
        ticks = 0
        renew_every = max(1, int(settings.TOURNAMENTS_ALIVE_SECONDS / 3 / FLUSH_SECONDS))
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            ticks += 1
            try:
                if self.user is not None and ticks % renew_every == 0:
                    presence.renew_soon(tournament_id=self.tournament.pk, user_id=self.user.pk)
                if self.dirty:
                    self.dirty = False
                    await self._send_state()
            except Exception:  # one failed tick (a database hiccup) must not end the socket
                logger.exception("tournament tick failed")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.serving:
            return
        try:
            if text_data is None:
                raise ValueError
            tournament_message.validate_json(text_data)
        except (ValueError, ValidationError):
            with translation.override(self.language):
                detail = _("The server did not understand that.")
            await self._send({"type": "error", "code": errors.BAD_MESSAGE, "detail": detail,
                              "for": None})
            await self.ws_strike()
            return
        await self._send_state()

    # --- from the group -------------------------------------------------------------------

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        self.dirty = True
        self.fresh_after = max(self.fresh_after, float(event.get("at", 0.0)))

    async def tournament_paired(self, event: dict[str, Any]) -> None:
        # Heard only in the reader's own group (`core.tournament_player_group`).
        await self._send({"type": "paired", "url": event["url"]})

    # --- to the client --------------------------------------------------------------------

    def _state(self) -> dict[str, Any]:
        with translation.override(self.language):
            state = selectors.tournament_state(tournament=self.tournament, user=self.user,
                                               fresh_after=self.fresh_after)
        state["server_time_ms"] = int(timezone.now().timestamp() * 1000)
        return state

    async def _send_state(self) -> None:
        await self._send(await db_call(self._state))

    async def _send(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json_text(content))
