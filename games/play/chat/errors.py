"""The refusals of game chat, each a stable code the client may act on."""

from __future__ import annotations

RATE_LIMITED = "chat_rate_limited"
MUTED = "chat_muted"
REFUSED = "chat_refused"  # the words themselves: a link from a new account, a repeat, empty
NO_FREE_TEXT = "chat_no_free_text"  # phrases and reactions only, here
NOT_ALLOWED = "chat_not_allowed"  # this viewer cannot speak in this game at all

CODES = frozenset({RATE_LIMITED, MUTED, REFUSED, NO_FREE_TEXT, NOT_ALLOWED})


class ChatError(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
