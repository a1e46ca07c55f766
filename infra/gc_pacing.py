"""The socket servers' garbage collection, in small steps at a steady pace.

Python collects its young generation when the objects made since the last collection
outnumber those freed by a threshold. A socket server in steady state frees about as many as
it makes (each move's snapshot replaces the one before, held by the caches of
`games.play.snapshot_cache` and `games.play.state_message`), so that count grows slowly while
the young generation grows large: with 2,000 sockets open each collection of it walked the
snapshots of several seconds and held the process for 100-370 ms every few seconds, the move
round trip's p99 (`python -m tests.load --duels 1000`). Collected every `YOUNG_SECONDS`, the
same objects are walked in pauses of a few milliseconds; the middle generation, where they
go next, every `MIDDLE_EVERY` of those; and the whole heap every `FULL_SECONDS`. Python's own
collection stays on behind it, for a burst between two steps.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

logger = logging.getLogger(__name__)

YOUNG_SECONDS = 0.1
MIDDLE_EVERY = 5
FULL_SECONDS = 600.0

_started = False
_lock = threading.Lock()


def start() -> None:
    """Pace this process's collections from a thread of its own (once per process)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    threading.Thread(target=_pace, name="gc-pacing", daemon=True).start()


def _pace() -> None:
    step = 0
    full_at = time.monotonic() + FULL_SECONDS
    while True:
        time.sleep(YOUNG_SECONDS)
        step += 1
        if time.monotonic() >= full_at:
            gc.collect()
            full_at = time.monotonic() + FULL_SECONDS
        elif step % MIDDLE_EVERY == 0:
            gc.collect(1)
        else:
            gc.collect(0)
