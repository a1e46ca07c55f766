"""The messages of the tournament socket, as pydantic models: the one message a client may
send is validated with these on arrival; what the server sends is checked against them by the
tests."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sync(_Message):
    type: Literal["sync"]


tournament_message = TypeAdapter(Sync)


# --- what the server sends ---------------------------------------------------------------------

Count = Annotated[int, Field(ge=0)]


class Standing(_Message):
    rank: Annotated[int, Field(ge=1)]
    player: str
    player_id: int
    rating: int
    score: int
    games: Count
    # Each game: [points, doubled by a streak (0/1), berserk won a point (0/1)].
    sheet: list[Annotated[list[int], Field(min_length=3, max_length=3)]]
    fire: bool
    paused: bool
    # A Swiss's: points (a win 1, a draw 0.5, a bye 1) and tie-breaks.
    points: float | None = None
    buchholz: float | None = None
    sonneborn_berger: float | None = None


class GameInProgress(_Message):
    match_id: int
    url: str
    players: Annotated[list[str], Field(min_length=2, max_length=2)]


class Me(_Message):
    paused: bool
    withdrawn: bool
    ai_opt_in: bool
    free_since_ms: int | None
    game_url: str | None
    score: int


class TournamentState(_Message):
    type: Literal["tournament"]
    kind: Literal["arena", "swiss"]
    round: Count
    rounds: int | None
    status: Literal["created", "started", "finished"]
    starts_at_ms: int
    ends_at_ms: int
    server_time_ms: int
    players: Count
    standings: list[Standing]
    podium: list[Standing]
    games: list[GameInProgress]
    me: Me | None


class Paired(_Message):
    type: Literal["paired"]
    url: str


server_message = TypeAdapter(
    Annotated[TournamentState | Paired, Field(discriminator="type")])
