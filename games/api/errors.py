"""The API's refusals: an HTTP status, a stable code and a sentence, sent as
`{"error": code, "detail": sentence}`. Nothing was changed when one is raised."""

from __future__ import annotations

from typing import Final

UNAUTHORIZED: Final = "unauthorized"
MISSING_SCOPE: Final = "missing_scope"
RATE_LIMITED: Final = "rate_limited"
NOT_FOUND: Final = "not_found"
BAD_REQUEST: Final = "bad_request"
NOT_A_BOT: Final = "not_a_bot"
BOTS_ONLY_BY_API: Final = "bot_account"
NOT_FRESH: Final = "not_fresh"
NO_BOT_CHALLENGES: Final = "no_bot_challenges"
SERVER_ERROR: Final = "server_error"


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str, *,
                 retry_after: int | None = None) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.retry_after = retry_after
