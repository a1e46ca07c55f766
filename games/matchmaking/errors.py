"""Refusals of matchmaking: a stable code for clients and tests, and a message for people."""

from __future__ import annotations

from typing import Final

IN_GAME: Final = "in_game"
OPPONENT_IN_GAME: Final = "opponent_in_game"
UNKNOWN_TIME_CONTROL: Final = "unknown_time_control"
UNRATED_CONTROL: Final = "unrated_control"
RATE_LIMITED: Final = "rate_limited"
GONE: Final = "gone"
OWN: Final = "own"
NOT_FOR_YOU: Final = "not_for_you"
EXPIRED: Final = "expired"
TOO_MANY_SEEKS: Final = "too_many_seeks"
BAD_MESSAGE: Final = "bad_message"
NOT_LOGGED_IN: Final = "not_logged_in"
NO_SUCH_PLAYER: Final = "no_such_player"
SEAT_TAKEN: Final = "seat_taken"
ALREADY_SEATED: Final = "already_seated"
NOT_CREATOR: Final = "not_creator"
NOT_FULL: Final = "not_full"
BAD_TABLE: Final = "bad_table"
NOT_WAITING: Final = "not_waiting"
BOT_ACCOUNT: Final = "bot_account"
BLOCKED: Final = "blocked"  # a block stands between the two players (accounts.social)


class MatchmakingError(Exception):
    """A refused matchmaking action; nothing was changed. `message` is translated; `url`, when
    given, is the page that resolves it (the game to finish first)."""

    def __init__(self, code: str, message: str, *, url: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.url = url
