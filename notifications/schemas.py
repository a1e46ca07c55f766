"""What the site socket sends a signed-in player about their notifications, as pydantic
models: the tests check every message against them, and a JavaScript test checks that the
header's script reads every field (`manage.py socket_schemas`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Item(_Message):
    id: int
    kind: Literal["challenge", "rematch", "draw_declined", "turn", "reminder", "finished"]
    text: str
    url: str
    created_ms: int
    read: bool
    # Shown at once on every open page, with a sound (challenges, rematch offers, draws declined).
    alert: bool
    # A challenge still open: the forms of its own accept and decline endpoints.
    accept_url: str | None
    decline_url: str | None
    # A rematch offer still standing: the finished game's page, where it is answered.
    answer_url: str | None


class Notifications(_Message):
    type: Literal["notifications"]
    unread: int
    items: list[Item]


class Notification(_Message):
    type: Literal["notification"]
    unread: int
    item: Item
