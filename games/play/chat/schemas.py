"""The messages of game chat on the match socket, both ways (see `games.play.chat.socket`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChatClientMessage(_Message):
    """A line: a quick phrase's id, a reaction, or free text."""

    type: Literal["chat"]
    kind: Literal["phrase", "emoji", "text"]
    body: str = Field(min_length=1, max_length=600)


class ChatLine(_Message):
    id: int
    kind: Literal["phrase", "emoji", "text"]
    author: str
    text: str
    """A phrase in the reader's language; a reaction or text as written."""
    phrase: str | None
    mine: bool
    reportable: bool
    at: int
    """When it was said, epoch milliseconds."""


class ChatHistory(_Message):
    """On connect: the reader's room and what they may say in it."""

    type: Literal["chat_history"]
    room: Literal["players", "spectators"]
    lines: list[ChatLine]
    free_text: bool
    may_speak: str | None
    """Why the reader cannot speak here at all (a visitor without an account), or None."""
    muted: str | None
    """Why the reader may not speak ("muted until ..."), in their language."""
    phrases: list[tuple[str, str]]
    reactions: list[str]


class ChatLineMessage(_Message):
    type: Literal["chat"]
    line: ChatLine
