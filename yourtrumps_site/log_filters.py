"""Filters of the site's logging configuration (`LOGGING` in the settings)."""

from __future__ import annotations

import asyncio
import logging


class CancelledCleanupIsNotAnError(logging.Filter):
    """channels-redis logs, as an error with a traceback, a consumer's unsubscription from its
    channel that was itself cancelled: daphne cancels an application whose client left while
    it was still starting (a handshake that timed out on a busy server). Nothing failed that a
    client or an operator could act on, and the channel is dropped all the same, so it is
    written as a one-line warning; any other exception stays an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, asyncio.CancelledError):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = "a channel's clean-up was cancelled (its consumer was stopped)"
            record.args = ()
            record.exc_info = record.exc_text = None
        return True
