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
together do not pause together), or sooner once the process holds as many objects more as the
last collection left alive (at least `FULL_AFTER_OBJECTS` more): a burst of garbage is
collected when it becomes large beside what the process holds, not after its ten minutes.
That bound is relative, as CPython's own rule for whole collections is: a server filling up
with sockets holds ever more objects without garbage among them (433,000 with a thousand
sockets), and a fixed bound would walk them again and again only to find them alive. It is
also drawn at random (up to half as large again) so that servers under the same load, which
reach a bound at the same moment, do not pause together. What was loaded before the first
connection is frozen out of these walks (`yourtrumps_site/asgi.py`). Each collection is
logged: its reason, its pause, the objects made since the last, what it freed and what it
left.
"""

from __future__ import annotations

import gc
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FULL_SECONDS = 600.0
FULL_AFTER_OBJECTS = 1_000_000
CHECK_SECONDS = 1.0
BOUND_SPREAD = 1.5

logger = logging.getLogger(__name__)

_started = False
_lock = threading.Lock()


@dataclass
class Pacer:
    """Decides, checked every `CHECK_SECONDS`, when the next whole collection is due."""

    full_seconds: float = FULL_SECONDS
    full_after_objects: int = FULL_AFTER_OBJECTS
    clock: Callable[[], float] = time.monotonic
    full_at: float = field(init=False)
    new_objects_bound: int = field(init=False)

    def __post_init__(self) -> None:
        self.full_at = self.clock() + self.full_seconds * random.uniform(0.5, 1.0)
        self.new_objects_bound = self._bound(held=0)

    def _bound(self, *, held: int) -> int:
        """How many objects more than a collection that left `held` bring the next one."""
        return int(max(self.full_after_objects, held) * random.uniform(1.0, BOUND_SPREAD))

    def step(self) -> bool:
        """Collect if due; whether it did."""
        more = gc.get_count()[0]  # tracked objects made and not yet freed since the last one
        if self.clock() >= self.full_at:
            reason = "due"
        elif more >= self.new_objects_bound:
            reason = "objects"
        else:
            return False
        started = time.perf_counter()
        freed = gc.collect()
        pause_ms = (time.perf_counter() - started) * 1000
        # What survived a whole collection is all in the oldest generation (start-up objects,
        # frozen, are in none).
        held = len(gc.get_objects(generation=2))
        self.full_at = self.clock() + self.full_seconds
        self.new_objects_bound = self._bound(held=held)
        logger.info("whole collection (%s): %.0f ms, %d objects more since the last, %d freed,"
                    " %d held", reason, pause_ms, more, freed, held)
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
