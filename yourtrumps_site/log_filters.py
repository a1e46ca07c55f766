"""Filters of the site's logging configuration (`LOGGING` in the settings)."""

from __future__ import annotations

import asyncio
import logging
import time


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


class RateLimited(logging.Filter):
    """At most `burst` records of one kind (its logger and message template) every `window`
    seconds; the rest are dropped, and the next one let through says how many were.

    What a hostile client sets off (a refused handshake, a socket closed for junk) is logged
    once per event: a client that repeats it a hundred times a second would make the log,
    its formatting and its writes, a cost of its own. The first lines of each burst tell the
    operator what is going on; the count tells how much."""

    def __init__(self, burst: int = 20, window: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self.kinds: dict[tuple[str, object], list[float]] = {}  # kind -> [start, let, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        kind = (record.name, record.msg)
        seen = self.kinds.get(kind)
        if seen is None or now - seen[0] >= self.window:
            dropped = int(seen[2]) if seen is not None else 0
            self.kinds[kind] = [now, 1, 0]
            if dropped:
                record.msg = f"{record.msg} (and {dropped} more like it, not logged)"
            return True
        if seen[1] < self.burst:
            seen[1] += 1
            return True
        seen[2] += 1
        return False
