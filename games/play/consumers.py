"""The match socket, `/ws/match/<id>/`: thin — authenticate, validate, call a service.

Protocol (JSON objects; every message from the server carries `version`):

- On connect the server sends `{"type": "state", ...}`: the full view for the user's seat
  (`you` is the seat, or null for a spectator) with its `version`, the legal moves of the seat
  to move (`legal_moves`, only to that seat), clocks in ms, the move list and the result.
- The client sends (`games.play.schemas`): `{"type": "move", "move": "QH-7D", "ply": N}` (N: the
  moves played so far, as in the state), `{"type": "trump", "suit": "S"}`, and
  `resign`, `abort`, `draw_offer`, `draw_accept`, `draw_decline`, `claim_victory`,
  `rematch`, `sync` (send me the full state) as `{"type": "..."}`, and
  `{"type": "focus", "focused": true|false}` when the page comes into view and focus or leaves
  it (answered `ok`; a spectator's changes nothing).
- After a change (by anyone, in any process) the server sends the new `state`; states come
  in version order and a client that sees a gap may `sync`. A successful action is answered
  `{"type": "ok", "for": "<type>", "version": V}` (and `"match_id"` of the new match for a
  rematch once both agreed) and then the state.
- A refusal: `{"type": "error", "code": "...", "detail": "...", "for": "<type>",
  "version": V}`, a code of `games.play.errors.CODES` or of the site's limits
  (`rate_limited`, `unavailable`). Nothing was changed.

Every message, both ways, is a model of `games.play.schemas`.

Spectators (anyone, for a public match) receive the states and may only `sync`.

Game chat (`{"type": "chat", ...}` and the `chat_history`/`chat` messages) travels on this
socket too: see `games.play.chat.socket`.

The service that made a change returns its snapshot (`games.play.snapshots`), which reaches
every socket of the match inside the channel-layer event; a socket renders its own view from it
(`games.play.state_message`) in its user's language, with no query: what every viewer is sent
alike is made once per process and version, and each distinct viewer's text once. Database
work runs on the pool of `infra.db_threads`.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError, InterfaceError
from pydantic import ValidationError

from accounts.languages import language_for_scope
from games.play import errors, selectors, services
from games.play.chat.socket import ChatSocket
from games.play.errors import PlayError
from games.play.leases import leases
from games.play.models import Match, Seat
from games.play.schemas import FocusMessage, MoveMessage, TrumpMessage, client_message
from games.play.snapshot_cache import Snapshot, event_snapshot
from games.play.snapshots import match_snapshot
from games.play.state_message import rendered
from infra.db_threads import db_call
from infra.json_text import json_text, json_value
from infra.sockets import SiteSocket

logger = logging.getLogger(__name__)


class MatchConsumer(ChatSocket, SiteSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "match"
    match_id: int
    seat: int | None
    sent_version: int
    language: str
    group: str | None = None
    focused: bool = False

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.seat = None
        self.sent_version = -1
        self.language = language_for_scope(self.scope)
        user = self.scope.get("user")
        session = self.scope.get("session")
        # A bot account plays through the Bot API only: on the page it watches.
        viewer = selectors.Viewer(
            user_id=(user.pk if user is not None and user.is_authenticated
                     and not user.is_bot else None),
            guest_id=(session.get("guest_id", "") if session is not None else "") or "",
        )
        # Accepted before anything is read: the answer is the same either way (a refusal is
        # an error and a close code after the handshake), and a busy server's database
        # threads then delay the first state rather than the handshake past its timeout.
        await self.accept()
        found = await db_call(self._find_seat, viewer)
        if found is None:
            await self._error(errors.NOT_FOUND, "there is no such match", "connect")
            await self.close(code=4404)
            return
        public, seat, rows = found
        if seat is None and not public:
            await self._error(errors.NOT_A_PLAYER, "this match is private", "connect")
            await self.close(code=4403)
            return
        # In the group before anything is read: a change after this arrives as an event
        # (handled once `connect` returns), one before it is in what is read below.
        self.group = services.group_name(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        change = None
        if seat is not None:
            try:
                change = await db_call(services.seat_presence_change, match_id=self.match_id,
                                       seat=seat, connected=True)
            except PlayError:  # the match went away between the two reads
                await self._error(errors.NOT_FOUND, "there is no such match", "connect")
                await self.close(code=4404)
                return
            leases.hold(self.match_id, seat)
        self.seat = seat
        # The player's first socket changed the match (their presence): its snapshot is
        # the match as it now is, and the usual case of a game just paired reads nothing.
        await self._send_state(change.snapshot if change is not None
                               else await self._read_snapshot(), force=True)
        await self.chat_join(*rows)

    def _find_seat(self, viewer: selectors.Viewer
                   ) -> tuple[bool, int | None, tuple[Match, list[Seat]]] | None:
        """Whether the match is public, the viewer's seat, and the rows read (which the chat
        reads its room's rules from)."""
        found = selectors.match_with_seats(match_id=self.match_id)
        if found is None:
            return None
        match, seats = found
        return match.public, selectors.seat_of(seats=seats, viewer=viewer), found

    async def disconnect(self, code: int) -> None:
        if self.group is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.chat_leave()
        if self.seat is not None:
            leases.release(self.match_id, self.seat)
            try:
                if self.focused:
                    await db_call(services.seat_focus_change, match_id=self.match_id,
                                  seat=self.seat, focused=False)
                await db_call(services.seat_presence_change, match_id=self.match_id,
                              seat=self.seat, connected=False)
            except PlayError as error:
                # A match deleted while its socket was open has no presence left to change.
                if error.code != errors.NOT_FOUND:
                    raise

    # --- from the client ------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.group is None:
            return
        if text_data is None:  # a binary frame (its size was checked by WebSocketLimits)
            await self._error(errors.BAD_MESSAGE, "send one JSON text message", None)
            await self.ws_strike()
            return
        try:
            raw = json_value(text_data)
        except ValueError:
            await self._error(errors.BAD_MESSAGE, "not JSON", None)
            await self.ws_strike()
            return
        kind = raw.get("type") if isinstance(raw, dict) else None
        if kind == "chat":  # game chat (games.play.chat.socket), limited apart from the moves
            await self.chat_receive(raw)
            return
        try:
            message = client_message.validate_python(raw)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "message"
            await self._error(errors.BAD_MESSAGE, f"{where}: {first['msg']}",
                              kind if isinstance(kind, str) else None)
            await self.ws_strike()
            return
        if message.type == "sync":
            await db_call(services.match_deadline_enforce, match_id=self.match_id)
            await self._send_state(await self._read_snapshot(), force=True)
            return
        if isinstance(message, FocusMessage):
            await self._focus(message.focused)
            return
        if self.seat is None:
            await self._error(errors.NOT_A_PLAYER, "spectators cannot act in this match",
                              message.type)
            return
        try:
            change = await db_call(self._act, message)
        except PlayError as error:
            await self._error(error.code, error.detail, message.type, refresh=True)
            return
        except (DatabaseError, InterfaceError):
            raise  # answered `unavailable` by WebSocketLimits: the client sends it again
        except Exception:
            logger.exception("match %s: %s failed", self.match_id, message.type)
            await self._error(errors.SERVER_ERROR, "the server failed; try again",
                              message.type, refresh=True)
            return
        # A rematch asked for again changes nothing: the match as it is names the new one.
        snapshot = change.snapshot if change is not None else await self._read_snapshot()
        if snapshot is None:
            return
        reply: dict[str, Any] = {"type": "ok", "for": message.type,
                                 "version": snapshot["version"]}
        if message.type == "rematch":
            reply["match_id"] = snapshot["rematch_id"]
        await self.send_json(reply)
        await self._send_state(snapshot)

    async def _focus(self, focused: bool) -> None:
        """This socket's page came into view and focus, or left it (each socket counts once)."""
        if self.seat is not None and focused != self.focused:
            await db_call(services.seat_focus_change, match_id=self.match_id, seat=self.seat,
                          focused=focused)
            self.focused = focused
        version = self.sent_version if self.sent_version >= 0 else None
        await self.send_json({"type": "ok", "for": "focus", "version": version})

    def _act(self, message: Any) -> services.Change | None:
        """Call the service of the message (on a database thread)."""
        match_id, seat = self.match_id, self.seat
        assert seat is not None
        if isinstance(message, MoveMessage):
            return services.move_apply(
                match_id=match_id, seat=seat, move=message.move, expected_ply=message.ply
            )
        if isinstance(message, TrumpMessage):
            return services.match_choose_trump(match_id=match_id, seat=seat,
                                               suit=message.suit)
        action = {
            "resign": services.match_resign,
            "abort": services.match_abort,
            "draw_offer": services.match_draw_offer,
            "draw_accept": services.match_draw_accept,
            "draw_decline": services.match_draw_decline,
            "claim_victory": services.match_claim_victory,
            "rematch": services.match_rematch,
        }[message.type]
        return action(match_id=match_id, seat=seat)

    async def _read_snapshot(self) -> Snapshot | None:
        return await db_call(match_snapshot, match_id=self.match_id)

    # --- to the client --------------------------------------------------------------------

    async def match_changed(self, event: dict[str, Any]) -> None:
        """A change was committed (in any process): send the view if it is news to us."""
        if int(event.get("version", 0)) <= self.sent_version:
            return
        snapshot = event_snapshot(event)
        if snapshot is None:  # the change could not be read back: read it now
            snapshot = await self._read_snapshot()
        await self._send_state(snapshot)

    async def _send_state(self, snapshot: Snapshot | None, force: bool = False) -> None:
        if snapshot is None:
            return
        if force or snapshot["version"] > self.sent_version:
            self.sent_version = max(self.sent_version, snapshot["version"])
            await self.send(text_data=rendered.text(snapshot=snapshot, viewer_seat=self.seat,
                                                    language=self.language))

    async def _error(self, code: str, detail: str, about: str | None, *,
                     refresh: bool = False) -> None:
        """Refuse a message. With `refresh` the match is read again: the refusal may come
        from a change the client has not seen yet, so its state follows the error."""
        snapshot = await self._read_snapshot() if refresh else None
        if snapshot is not None:
            version: int | None = snapshot["version"]
        else:
            version = self.sent_version if self.sent_version >= 0 else None
        await self.send_json(
            {"type": "error", "code": code, "detail": detail, "for": about, "version": version}
        )
        await self._send_state(snapshot)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json_text(content))
