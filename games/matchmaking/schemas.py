"""The messages a client may send on the lobby socket, validated with pydantic."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PoolJoin(_Message):
    type: Literal["pool_join"]
    pool: Annotated[str, Field(max_length=10)]


class SeekCreate(_Message):
    type: Literal["seek_create"]
    time_control: Annotated[str, Field(max_length=10)]
    rated: bool = True


class SeekAction(_Message):
    type: Literal["seek_accept", "seek_cancel"]
    id: Annotated[int, Field(ge=1)]


class Simple(_Message):
    type: Literal["pool_leave", "sync"]


LobbyMessage = Annotated[PoolJoin | SeekCreate | SeekAction | Simple, Field(discriminator="type")]
lobby_message = TypeAdapter(LobbyMessage)
