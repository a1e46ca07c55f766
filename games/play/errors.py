"""The typed errors of play: every refusal names its problem with a stable code."""

from __future__ import annotations

from typing import Final

# Stable codes: the consumer sends them as `{"type": "error", "code": ...}` and the client
# (and the tests) match on them.
NOT_YOUR_TURN: Final = "not_your_turn"
ILLEGAL_MOVE: Final = "illegal_move"
STALE_PLY: Final = "stale_ply"
NOT_A_PLAYER: Final = "not_a_player"
BAD_MESSAGE: Final = "bad_message"
GAME_OVER: Final = "game_over"
NOT_FOUND: Final = "not_found"
WRONG_PHASE: Final = "wrong_phase"
BAD_TRUMP: Final = "bad_trump"
CANNOT_ABORT: Final = "cannot_abort"
NO_DRAW_OFFER: Final = "no_draw_offer"
NOT_ALLOWED: Final = "not_allowed"
CANNOT_CLAIM: Final = "cannot_claim"
GAME_NOT_OVER: Final = "game_not_over"
SERVER_ERROR: Final = "server_error"
# Besides these, the site's limits on every socket answer `rate_limited` and `unavailable`
# (`infra.ws_limits`).
CODES: Final = (
    NOT_YOUR_TURN, ILLEGAL_MOVE, STALE_PLY, NOT_A_PLAYER, BAD_MESSAGE, GAME_OVER, NOT_FOUND,
    WRONG_PHASE, BAD_TRUMP, CANNOT_ABORT, NO_DRAW_OFFER, NOT_ALLOWED, CANNOT_CLAIM,
    GAME_NOT_OVER, SERVER_ERROR,
)


class PlayError(Exception):
    """A refused action. Nothing was changed when it is raised."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail or code.replace("_", " ")
