"""The messages of the lobby socket, both ways, as pydantic models: what a client may send is
validated with these on arrival (each text field of its kind: `infra.socket_fields`);
what the server sends is checked against them by the tests, and a JavaScript test checks that
the lobby's script reads every field of `Lobby`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from infra.socket_fields import PoolKey, TimeControlKey, Token


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PoolJoin(_Message):
    type: Literal["pool_join"]
    pool: PoolKey


class SeekCreate(_Message):
    type: Literal["seek_create"]
    time_control: TimeControlKey
    rated: bool = True


class SeekAction(_Message):
    type: Literal["seek_accept", "seek_cancel"]
    id: Annotated[int, Field(ge=1)]


class Simple(_Message):
    type: Literal["pool_leave", "pool_fill_ai", "sync"]


SeatIndex = Annotated[int, Field(ge=0, le=3)]


class TableCreate(_Message):
    type: Literal["table_create"]
    players: Literal[3, 4]
    time_control: TimeControlKey
    rated: bool = False
    public: bool = True


class TableJoin(_Message):
    type: Literal["table_join"]
    table: Token
    seat: SeatIndex | None = None


class TableAction(_Message):
    type: Literal["table_leave", "table_start"]
    table: Token


class TableFillAI(_Message):
    type: Literal["table_fill_ai"]
    table: Token
    seat: SeatIndex
    level: Annotated[int, Field(ge=1, le=9)]


class TableSeatClear(_Message):
    type: Literal["table_seat_clear"]
    table: Token
    seat: SeatIndex


LobbyMessage = Annotated[
    PoolJoin | SeekCreate | SeekAction | Simple | TableCreate | TableJoin | TableAction
    | TableFillAI | TableSeatClear,
    Field(discriminator="type"),
]
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
    fill_ai_at_ms: int | None
    """At a table pool: from when the player may take the AI in the other seats."""


class TableSeatRow(_Message):
    index: int
    kind: Literal["empty", "person", "ai"]
    player: str | None
    player_id: int | None
    rating: int | None
    provisional: bool
    ai_level: int | None


class TableRow(_Message):
    token: str
    url: str
    creator: str
    creator_id: int
    players: Literal[3, 4]
    time_control: str
    correspondence: bool
    """Days per move: the table fills over hours or days, its seats kept without a socket."""
    rated: bool
    public: bool
    closes_in_days: int | None
    """An open correspondence table: in how many days (counted up) it closes if nobody fills
    it (`MATCHMAKING_CORRESPONDENCE_TABLE_DAYS` after its creation); a live one: none."""
    seats: list[TableSeatRow]


class OwnTable(_Message):
    table: TableRow
    can_start: bool


class LiveMatch(_Message):
    id: int
    url: str


class Me(_Message):
    searching: Searching | None
    table: TableRow | None
    """The open live table the player sits at (public or private)."""
    can_start: bool
    correspondence_tables: list[OwnTable]
    """The open correspondence tables the player sits at, beside a live one (up to
    `MATCHMAKING_OPEN_CORRESPONDENCE_TABLES`), oldest first."""
    challenges_in: list[ChallengeRow]
    challenges_out: list[str]
    live_match: LiveMatch | None


class Lobby(_Message):
    type: Literal["lobby"]
    pools: list[PoolCount]
    seeks: list[SeekRow]
    tables: list[TableRow]
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
    """Only the site's limits (`infra.ws_limits`) send it, empty: they answer
    every socket alike."""


ServerMessage = Annotated[Lobby | Pools | Paired | Ok | Error, Field(discriminator="type")]
server_message = TypeAdapter(ServerMessage)
