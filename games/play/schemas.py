"""The messages a client may send on a match socket, validated with pydantic.

Every message is a JSON object with a `type`; unknown fields are refused. The replies and
broadcasts are described in `games.play.consumers`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveMessage(_Message):
    """Play a move in notation (`9H`, `QH-7D`, `QH`, `+3`) at the ply the client sees."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=2, max_length=8)]
    ply: Annotated[int, Field(ge=0, le=100_000)]


class TrumpMessage(_Message):
    type: Literal["trump"]
    suit: Literal["C", "D", "H", "S"]


class SimpleMessage(_Message):
    """An action without arguments."""

    type: Literal[
        "resign",
        "abort",
        "draw_offer",
        "draw_accept",
        "draw_decline",
        "claim_victory",
        "rematch",
        "sync",
    ]


ClientMessage = Annotated[
    MoveMessage | TrumpMessage | SimpleMessage, Field(discriminator="type")
]
client_message = TypeAdapter(ClientMessage)
