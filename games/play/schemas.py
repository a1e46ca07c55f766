"""The messages of a match socket, both ways, as pydantic models: the one statement of the
client-server contract.

What a client may send is validated with these on arrival (unknown fields are refused).
What the server sends (`State`, `Ok`, `Error`) is built by `games.play.state_message` and the
consumer; the tests validate every message the server sends against these models, and a
JavaScript test checks that the board reads every field of `State`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from games.play.chat.schemas import ChatHistory, ChatLineMessage
from infra.socket_fields import MoveText

Card = Annotated[str, Field(pattern=r"^[6-9TJQKA][CDHS]$")]
Suit = Literal["C", "D", "H", "S"]
SeatIndex = Annotated[int, Field(ge=0, le=3)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveMessage(_Message):
    """Play a move in notation (`9H`, `QH-7D`, `QH`, `+3`) at the ply the client sees."""

    type: Literal["move"]
    move: MoveText
    ply: Annotated[int, Field(ge=0, le=100_000)]


class TrumpMessage(_Message):
    type: Literal["trump"]
    suit: Suit


class FocusMessage(_Message):
    """The page came into view and focus, or left it: while it is, its player sees their
    turns come and is not notified of them."""

    type: Literal["focus"]
    focused: bool


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
    MoveMessage | TrumpMessage | FocusMessage | SimpleMessage, Field(discriminator="type")
]
client_message = TypeAdapter(ClientMessage)


# --- what the server sends ---------------------------------------------------------------------


# The state is a TypedDict, not a model: `games.play.state_message` builds it as plain data
# (a broadcast renders it for every socket, where building models would cost), and mypy
# checks the builder against these types; the tests validate it through `server_message`.
_STATE_CONFIG = ConfigDict(extra="forbid")


@with_config(_STATE_CONFIG)
class SeatView(TypedDict):
    index: SeatIndex
    name: str
    kind: Literal["user", "guest", "ai", "deleted"]
    bot: bool
    """A bot account (it plays through the Bot API): marked BOT beside its name."""
    ai_level: int | None
    taken_over: bool
    """At a table: the AI plays this person's seat since they left (`name` is theirs)."""
    taken_over_ply: Annotated[int, Field(ge=0)] | None
    """The moves played when the AI took the seat over (it played from the next one on)."""
    trump: Suit | None
    hand: list[Card] | None
    """The cards of this hand the viewer may see (`games.rules.visible_hands`)."""
    hidden: Annotated[int, Field(ge=0, le=36)]
    """How many of its cards the viewer may not see."""
    hand_size: Annotated[int, Field(ge=0, le=36)]
    clock_ms: int | None
    connected: bool
    place: int | None
    result: Literal["win", "loss", "draw"] | None
    rating_before: float | None
    rating_after: float | None
    rating: int | None
    provisional: bool | None
    rating_delta: int | None


@with_config(_STATE_CONFIG)
class ClockView(TypedDict):
    initial: Annotated[int, Field(gt=0)]
    increment: Annotated[int, Field(ge=0)]
    per_move: bool
    """Days per move: `initial` seconds for every turn, the clock full again at each."""


@with_config(_STATE_CONFIG)
class TrumpChoiceView(TypedDict):
    chooser: SeatIndex | None
    free: list[Suit]
    deadline_ms: int | None


@with_config(_STATE_CONFIG)
class LastMoveView(TypedDict):
    ply: Annotated[int, Field(ge=1)]
    seat: SeatIndex
    move: str
    taken: list[Card]
    """The cards the move took into the mover's hand (a take), else empty."""


@with_config(_STATE_CONFIG)
class ResultView(TypedDict):
    result: Literal["decided", "draw", "aborted"]
    loser: SeatIndex | None
    termination: str
    reason: str


@with_config(_STATE_CONFIG)
class State(TypedDict):
    """The whole match as one viewer may see it: on connect, after every change, on `sync`.
    The puzzle board and the replay draw their positions in this shape too."""

    type: Literal["state"]
    id: int
    version: int
    ply: int
    status: Literal["trumps", "playing", "finished", "aborted"]
    variant: Literal["standard", "strict"]
    rated: bool
    n_players: Annotated[int, Field(ge=2, le=4)]
    dealer: SeatIndex | None
    """Who dealt; None where it is not known (an imported record's replay)."""
    clock: ClockView | None
    correspondence: bool
    """A game played over days: leaving the page ends nothing."""
    you: SeatIndex | None
    seats: list[SeatView]
    pile: list[Card]
    to_move: SeatIndex | None
    running: SeatIndex | None
    """The seat whose clock runs now, if any."""
    legal_moves: list[str]
    """The viewer's legal moves when it is to move, else empty."""
    take_count: int
    trump_choice: TrumpChoiceView | None
    moves: list[tuple[SeatIndex, str]]
    last_move: LastMoveView | None
    draw_offer: SeatIndex | None
    draw_agreed: list[SeatIndex]
    """The seats that agree to the standing draw offer: its offerer and who accepted it."""
    draw_awaited: list[SeatIndex]
    """The seats still holding cards whose answer the offer waits for (a table's draw
    needs them all)."""
    can_offer_draw: bool
    rematch_offer: SeatIndex | None
    rematch_agreed: list[SeatIndex]
    """The seats that agree to the standing rematch offer: its offerer and who accepted it."""
    rematch_awaited: list[SeatIndex]
    """The people whose agreement the rematch still waits for: it seats everyone who played,
    so it is made when every person agreed (the AI always does)."""
    rematch_id: int | None
    can_abort: bool
    claim_at_ms: int | None
    result: ResultView | None
    server_time_ms: int


state_adapter = TypeAdapter(State)
"""Validates a state and gives its JSON Schema (`python manage.py socket_schemas`)."""


class Ok(_Message):
    type: Literal["ok"]
    for_: str = Field(alias="for")
    version: int | None
    match_id: int | None = None
    """For `rematch`: the new match once everyone agreed."""


class Error(_Message):
    type: Literal["error"]
    code: str
    detail: str
    for_: str | None = Field(alias="for")
    version: int | None


ServerMessage = Annotated[State | Ok | Error | ChatHistory | ChatLineMessage,
                          Field(discriminator="type")]
server_message = TypeAdapter(ServerMessage)
