"""The socket servers' garbage collection: whole collections, rare and spread out, and no
young ones.

Python frees almost everything a socket server makes by reference counting; the cyclic
collector only finds what forms a cycle. Probed under load (`python -m tests.load --duels
1000`, a `gc.callbacks` timer in each daphne), collections of the young generations every
0.1 s and of the middle one every 0.5 s found next to nothing (a few dozen objects in ten
seconds) yet took 5-10 % of a daphne's CPU and held its loop 20-90 ms a few times a second:
each walked the game states and socket tasks of the last moments, alive and waiting for
their next move. Left to Python's own threshold, the same young generation grew for seconds
and each collection of it held the loop 100-370 ms (a server in steady state frees about as
many objects as it makes, so the count that triggers it grows slowly while the generation
grows large).

So the process's own collection is off (`start`), and `Pacer` runs a whole collection every
`FULL_SECONDS` (the first at a random point of the first period, so that the servers started
together do not pause together), or sooner once the process holds `FULL_AFTER_OBJECTS` more
objects than after the last one: a burst of garbage is collected when it becomes large, not
after its ten minutes. What was loaded before the first connection is frozen out of these
walks (`yourtrumps_site/asgi.py`).
"""

from __future__ import annotations

import gc
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FULL_SECONDS = 600.0
FULL_AFTER_OBJECTS = 1_000_000
CHECK_SECONDS = 1.0

_started = False
_lock = threading.Lock()


@dataclass
class Pacer:
    """Decides, checked every `CHECK_SECONDS`, when the next whole collection is due."""

    full_seconds: float = FULL_SECONDS
    full_after_objects: int = FULL_AFTER_OBJECTS
    clock: Callable[[], float] = time.monotonic
    full_at: float = field(init=False)

    def __post_init__(self) -> None:
        self.full_at = self.clock() + self.full_seconds * random.uniform(0.5, 1.0)

    def step(self) -> bool:
        """Collect if due; whether it did."""
        if self.clock() < self.full_at and gc.get_count()[0] < self.full_after_objects:
            return False
        gc.collect()
        self.full_at = self.clock() + self.full_seconds
        return True


def start() -> None:
    """Turn Python's own collection off and pace whole collections from a thread of its own
    (once per process)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    gc.disable()
    pacer = Pacer()
    threading.Thread(target=_pace, args=(pacer,), name="gc-pacing", daemon=True).start()


def _pace(pacer: Pacer) -> None:
    while True:
        time.sleep(CHECK_SECONDS)
        pacer.step()
