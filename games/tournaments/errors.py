"""The typed refusals of tournaments: a stable code and a message in the player's language."""

from __future__ import annotations

from typing import Final

NOT_FOUND: Final = "not_found"
NOT_LOGGED_IN: Final = "not_logged_in"
FINISHED: Final = "finished"
NOT_JOINED: Final = "not_joined"
NOT_YOUR_GAME: Final = "not_your_game"
BERSERK_REFUSED: Final = "berserk_refused"
BAD_MESSAGE: Final = "bad_message"
RATE_LIMITED: Final = "rate_limited"


class TournamentError(Exception):
    """A refused action; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
