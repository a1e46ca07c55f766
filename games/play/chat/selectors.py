"""Reads of game chat: a room's lines, who may write free text, what a reader is shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from accounts import social
from accounts.models import User
from games.play.chat.models import ChatMessage, Kind, Room
from games.play.chat.phrases import phrase_text
from games.play.models import Match, Seat

HISTORY = 100  # the newest lines a socket is sent on connect


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who is writing: an account or a guest, in a seat or (None) among the spectators."""

    user: User | None
    guest_id: str
    seat: int | None

    @property
    def room(self) -> str:
        return Room.PLAYERS if self.seat is not None else Room.SPECTATORS


def room_group(*, match_id: int, room: str) -> str:
    return f"chat-{match_id}-{room}"


def line_data(message: ChatMessage) -> dict[str, Any]:
    """A stored line as plain data (the channel-layer event; no language yet)."""
    return {"id": message.pk, "room": message.room, "kind": message.kind, "body": message.body,
            "author": message.author_name, "author_id": message.author_id,
            "guest": message.guest_id, "at": int(message.created_at.timestamp() * 1000)}


def line_view(line: dict[str, Any], *, reader_user_id: int | None, reader_guest: str
              ) -> dict[str, Any]:
    """What one reader is sent of a line, in the active language: a phrase as its words."""
    phrase = line["kind"] == Kind.PHRASE
    mine = (line["author_id"] is not None and line["author_id"] == reader_user_id) or (
        bool(line["guest"]) and line["guest"] == reader_guest)
    return {"id": line["id"], "kind": line["kind"], "author": line["author"] or str(_("Guest")),
            "text": phrase_text(line["body"]) if phrase else line["body"],
            "phrase": line["body"] if phrase else None, "mine": mine,
            "reportable": line["author_id"] is not None and not mine, "at": line["at"]}


def room_lines(*, match_id: int, room: str, hidden_authors: set[int],
               limit: int = HISTORY) -> list[dict[str, Any]]:
    """The newest lines of a room, oldest first, without those of `hidden_authors`."""
    rows = (ChatMessage.objects.filter(match_id=match_id, room=room)
            .exclude(author_id__in=hidden_authors).order_by("-id")[:limit])
    return [line_data(message) for message in reversed(rows)]


def free_text_allowed(*, match: Match, seats: list[Seat], speaker: Speaker) -> bool:
    """Whether `speaker` may write free text here (else phrases and reactions only).

    Only accounts write, and in the players' room only to accounts (a guest is nobody to
    answer for their words). In a rated game against someone who is not a friend, only when
    every player has turned `chat_with_strangers` on: a stranger's words at a rated table are
    the most reported ones.
    """
    if speaker.user is None:
        return False
    if speaker.seat is None:
        return True
    people = [seat for seat in seats if not seat.is_ai]
    if any(seat.user_id is None for seat in people):
        return False
    others = [seat.user_id for seat in people if seat.user_id != speaker.user.pk]
    if not match.rated or all(
            social.are_friends(first_id=speaker.user.pk, second_id=other)
            for other in others if other is not None):
        return True
    return all(seat.user.chat_with_strangers for seat in people if seat.user is not None)


def replay_lines(*, match_id: int, user_id: int | None, guest_id: str
                 ) -> list[dict[str, Any]]:
    """The players' room of a game as one of its players sees it again in the replay, in the
    active language (none of a player they are kept apart from by a block)."""
    hidden = social.blocked_either_way(user_id=user_id) if user_id is not None else set()
    lines = room_lines(match_id=match_id, room=Room.PLAYERS, hidden_authors=hidden,
                       limit=1000)
    return [line_view(line, reader_user_id=user_id, reader_guest=guest_id) for line in lines]
