"""Game chat on the match socket: a mixin of `games.play.consumers.MatchConsumer`.

A player's socket joins the players' room of its match, any other the spectators' room; a
socket never joins the other room, so a spectator's line cannot reach a player (lichess keeps
them apart so that nobody coaches a player). On connect the socket is sent
`{"type": "chat_history", "room", "lines": [...], "free_text": bool, "may_speak":
words|null, "muted": words|null,
"phrases": [[id, words]...], "reactions": [...]}`; each new line as
`{"type": "chat", "line": {id, kind, author, text, phrase, mine, reportable, at}}`, a phrase
in the reader's own language. The client sends `{"type": "chat", "kind":
"phrase"|"emoji"|"text", "body": "..."}`, answered `ok` (`for: "chat"`) or an error of
`games.play.chat.errors` with words to show.

Chat frames are counted in a bucket of their own (`CHAT_SOCKET_BURST`,
`CHAT_SOCKET_RATE_PER_SECOND`): a player who floods the chat is refused line by line by the
chat's rate limit, while their moves and their socket go on.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pydantic import ValidationError

from accounts import moderation, social
from games.play.chat import selectors, services
from games.play.chat.errors import ChatError
from games.play.chat.phrases import PHRASES, REACTIONS
from games.play.chat.schemas import ChatClientMessage
from games.play.chat.selectors import Speaker
from games.play.models import Match, Seat
from infra.db_threads import db_call
from infra.json_text import json_value
from infra.ws_limits import TokenBucket

CHAT_FRAME_BYTES = 2048
NOT_UNDERSTOOD = gettext_lazy("The server did not understand that.")


def is_chat_frame(text: str | None) -> bool:
    """Whether a frame is a chat message (read only when small: a chat line is)."""
    if text is None or len(text) > CHAT_FRAME_BYTES or '"chat"' not in text:
        return False
    try:
        raw = json_value(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(raw, dict) and raw.get("type") == "chat"


class ChatSocket:
    """Mix in before the consumer; the consumer calls `chat_join`, `chat_leave` and
    `chat_receive`, and has `match_id`, `seat`, `language`, `scope`, `send_json`."""

    chat_group: str | None = None
    chat_hidden: frozenset[int] = frozenset()
    chat_bucket: TokenBucket | None = None

    def ws_bucket_for(self, text: str | None) -> TokenBucket:
        if not is_chat_frame(text):
            return super().ws_bucket_for(text)  # type: ignore[misc, no-any-return]
        if self.chat_bucket is None:
            self.chat_bucket = TokenBucket(rate=float(settings.CHAT_SOCKET_RATE_PER_SECOND),
                                           capacity=float(settings.CHAT_SOCKET_BURST))
        return self.chat_bucket

    def _chat_speaker(self) -> Speaker:
        scope: dict[str, Any] = self.scope  # type: ignore[attr-defined]
        user = scope.get("user")
        session = scope.get("session")
        return Speaker(
            user=user if user is not None and user.is_authenticated else None,
            guest_id=(session.get("guest_id", "") if session is not None else "") or "",
            seat=self.seat,  # type: ignore[attr-defined]
        )

    async def chat_join(self, match: Match, seats: list[Seat]) -> None:
        """Join the room and send its history; `match` and `seats` (with their users' names
        and chat settings) as the consumer read them at connect."""
        speaker = self._chat_speaker()
        self.chat_group = selectors.room_group(match_id=self.match_id,  # type: ignore[attr-defined]
                                               room=speaker.room)
        await self.channel_layer.group_add(self.chat_group,  # type: ignore[attr-defined]
                                           self.channel_name)  # type: ignore[attr-defined]
        await self.send_json(await db_call(  # type: ignore[attr-defined]
            self._chat_history, speaker, match, seats))

    def _chat_history(self, speaker: Speaker, match: Match, seats: list[Seat]
                      ) -> dict[str, Any]:
        # The speaker's mute as it is now: their row was read by this socket's handshake.
        user = speaker.user
        if user is not None:
            self.chat_hidden = frozenset(social.blocked_either_way(user_id=user.pk))
        lines = selectors.room_lines(match_id=self.match_id,  # type: ignore[attr-defined]
                                     room=speaker.room, hidden_authors=set(self.chat_hidden))
        with translation.override(self.language):  # type: ignore[attr-defined]
            return {
                "type": "chat_history", "room": speaker.room,
                "lines": [self._chat_view(line) for line in lines],
                "free_text": selectors.free_text_allowed(match=match, seats=seats,
                                                         speaker=speaker),
                "may_speak": None if user is not None or speaker.guest_id
                else str(_("Log in to chat.")),
                "muted": moderation.mute_words(user=user) if user is not None else None,
                "phrases": [[key, str(words)] for key, words in PHRASES.items()],
                "reactions": list(REACTIONS),
            }

    def _chat_view(self, line: dict[str, Any]) -> dict[str, Any]:
        speaker = self._chat_speaker()
        return selectors.line_view(
            line, reader_user_id=speaker.user.pk if speaker.user is not None else None,
            reader_guest=speaker.guest_id)

    async def chat_leave(self) -> None:
        if self.chat_group is not None:
            await self.channel_layer.group_discard(self.chat_group,  # type: ignore[attr-defined]
                                                   self.channel_name)  # type: ignore[attr-defined]

    async def chat_receive(self, raw: Any) -> None:
        """A chat message from the client (the consumer has read its JSON)."""
        try:
            message = ChatClientMessage.model_validate(raw)
        except ValidationError:
            with translation.override(self.language):  # type: ignore[attr-defined]
                await self._chat_refuse("bad_message", str(NOT_UNDERSTOOD))
            await self.ws_strike()  # type: ignore[attr-defined]
            return
        try:
            posted = await db_call(self._chat_post, message)
        except ChatError as error:
            await self._chat_refuse(error.code, error.detail)
            return
        await self.send_json({"type": "ok", "for": "chat",  # type: ignore[attr-defined]
                              "version": self._chat_version()})
        assert self.chat_group is not None
        await self.channel_layer.group_send(  # type: ignore[attr-defined]
            self.chat_group, {"type": "chat.line", "line": selectors.line_data(posted)})

    def _chat_post(self, message: ChatClientMessage) -> Any:
        """On a database thread, where the refusal's words are put in the reader's language."""
        with translation.override(self.language):  # type: ignore[attr-defined]
            return services.chat_post(match_id=self.match_id,  # type: ignore[attr-defined]
                                      speaker=self._chat_speaker(), kind=message.kind,
                                      body=message.body)

    def _chat_version(self) -> int | None:
        version: int = self.sent_version  # type: ignore[attr-defined]
        return version if version >= 0 else None

    async def _chat_refuse(self, code: str, detail: str) -> None:
        await self.send_json({"type": "error", "code": code,  # type: ignore[attr-defined]
                              "detail": detail, "for": "chat",
                              "version": self._chat_version()})

    async def chat_line(self, event: dict[str, Any]) -> None:
        """A line of this socket's room, posted in any process: shown unless its author and
        this reader are kept apart by a block."""
        line = event["line"]
        if line.get("author_id") in self.chat_hidden:
            return
        with translation.override(self.language):  # type: ignore[attr-defined]
            view = self._chat_view(line)
        await self.send_json({"type": "chat", "line": view})  # type: ignore[attr-defined]

