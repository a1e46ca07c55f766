"""The messages of the lobby socket, both ways, as pydantic models: what a client may send is
validated with these on arrival; what the server sends is checked against them by the tests,
and a JavaScript test checks that the lobby's script reads every field of `Lobby`."""

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


# --- what the server sends ---------------------------------------------------------------------


class PoolCount(_Message):
    key: str
    waiting: Annotated[int, Field(ge=0)]


class SeekRow(_Message):
    id: int
    player: str
    player_url: str  # the player's profile
    player_id: int
    rating: int
    provisional: bool
    time_control: str
    rated: bool


class ChallengeRow(_Message):
    token: str
    from_: str = Field(alias="from")
    to: str | None
    time_control: str
    rated: bool
    url: str
    expires_ms: int


class Searching(_Message):
    pool: str
    since_ms: int


class LiveMatch(_Message):
    id: int
    url: str


class Me(_Message):
    searching: Searching | None
    challenges_in: list[ChallengeRow]
    challenges_out: list[str]
    live_match: LiveMatch | None


class Lobby(_Message):
    type: Literal["lobby"]
    pools: list[PoolCount]
    seeks: list[SeekRow]
    me: Me
    server_time_ms: int


class Pools(_Message):
    type: Literal["pools"]
    pools: list[PoolCount]


class Paired(_Message):
    type: Literal["paired"]
    match_id: int
    url: str


class Ok(_Message):
    type: Literal["ok"]
    for_: str = Field(alias="for")


class Error(_Message):
    type: Literal["error"]
    code: str
    detail: str
    for_: str | None = Field(alias="for")
    version: None = None
    """Only the site's limits (`yourtrumps_site.ws_limits`) send it, empty: they answer
    every socket alike."""


ServerMessage = Annotated[Lobby | Pools | Paired | Ok | Error, Field(discriminator="type")]
server_message = TypeAdapter(ServerMessage)
