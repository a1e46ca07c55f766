"""The shapes of the API's JSON answers, for the OpenAPI schema (django-ninja reads these
pydantic models). The streams' lines are described in docs/api.md: the state lines are the
board's state message (`games.play.schemas.State`)."""

from __future__ import annotations

from ninja import Schema


class ErrorOut(Schema):
    error: str
    detail: str


class OkOut(Schema):
    ok: bool


class AcceptOut(Schema):
    ok: bool
    game_id: int


class MoveOut(Schema):
    ok: bool
    version: int
    ply: int


class ChallengeCreateIn(Schema):
    time_control: str = "3+2"
    """A time control the site offers: `1+1`, `3+2`, `5+3`, `10+5`, days per move `1d`...,
    or `corr` (correspondence without a clock, casual only)."""
    rated: bool = False


class PlayerOut(Schema):
    name: str
    title: str | None
    rating: int | None


class ChallengeOut(Schema):
    id: str
    status: str
    challenger: PlayerOut
    dest_user: PlayerOut | None
    rated: bool
    time_control: str
    expires_at: str | None
    game_id: int | None


class GamePlayerOut(Schema):
    seat: int
    name: str
    title: str | None
    ai_level: int | None
    rating: int | None
    rating_before: float | None
    rating_after: float | None
    result: str | None
    place: int | None


class GameOut(Schema):
    id: int
    seat: int | None
    players: list[GamePlayerOut]
    n_players: int
    variant: str
    rated: bool
    time_control: str
    correspondence: bool
    status: str
    result: str | None
    loser: int | None
    termination: str | None
    plies: int
    created_at: str | None
    started_at: str | None
    finished_at: str | None


class GameRecordOut(GameOut):
    moves: list[str]
    record: str | None
    """The game record (docs/replays.md) once it may be shown: a duel at any time, a game of
    3-4 once it is over."""


class RatingOut(Schema):
    mode: str
    rating: int
    deviation: int
    provisional: bool
    games: int


class ProfileOut(Schema):
    name: str
    title: str | None
    created_at: str
    ratings: list[RatingOut]
    played: int
    won: int
    drawn: int
    lost: int
    url: str


class LeaderRowOut(Schema):
    rank: int | None
    name: str
    title: str | None
    rating: int
    deviation: int
    games: int
    provisional: bool


class LeaderboardOut(Schema):
    mode: str
    established: list[LeaderRowOut]
    provisional: list[LeaderRowOut]


class AccountOut(Schema):
    name: str
    title: str | None
    bot_challenges: bool
    scopes: list[str]
