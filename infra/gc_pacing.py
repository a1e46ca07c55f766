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
together do not pause together), or sooner once the process's memory has grown by half of what
it was after the last one (at least `GROWTH_MIN_BYTES`, more than its sockets alone take: 119
KiB each, 140 MiB at 1,200): garbage that forms cycles is collected when it costs memory, not
on a clock. A whole collection pauses a server with a thousand sockets 0.4-0.8 s (it walks the
433,000 objects they hold), and under honest play it frees next to nothing: one after 5 minutes
of 1,000 duels freed 6,000 objects. A bound on `gc.get_count()` (objects made less objects
freed) would not have told it: that count had grown by 657,000 while the process came to hold
403,000 objects more, as it counts some freed objects as held. What grows memory is what is
worth a pause: the cycles of broken sockets (about 40 MiB in 5 minutes of hostile churn,
docs/reliability.md). The bound is relative, as CPython's own rule
for whole collections is, so a server filling up with sockets is not walked again and again
only to find them alive, and drawn at random (up to half as large again) so that servers under
the same load do not reach it together. What was loaded before the first connection is frozen
out of these walks (`yourtrumps_site/asgi.py`). Each collection is logged: its reason, its
pause, the memory before and after, what it freed and what it left.
"""

from __future__ import annotations

import gc
import logging
import os
import random
import resource
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FULL_SECONDS = 3600.0
GROWTH_MIN_BYTES = 256 * 1024 * 1024
CHECK_SECONDS = 1.0
BOUND_SPREAD = 1.5

logger = logging.getLogger(__name__)

_started = False
_lock = threading.Lock()
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """The process's resident memory now (its peak where /proc is not there)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_BYTES
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@dataclass
class Pacer:
    """Decides, checked every `CHECK_SECONDS`, when the next whole collection is due."""

    full_seconds: float = FULL_SECONDS
    growth_min_bytes: int = GROWTH_MIN_BYTES
    clock: Callable[[], float] = time.monotonic
    memory: Callable[[], int] = resident_bytes
    full_at: float = field(init=False)
    memory_bound: int = field(init=False)

    def __post_init__(self) -> None:
        self.full_at = self.clock() + self.full_seconds * random.uniform(0.5, 1.0)
        self.memory_bound = self._bound(after=self.memory())

    def _bound(self, *, after: int) -> int:
        """The memory that, after a collection left the process with `after`, brings the
        next."""
        return after + int(max(self.growth_min_bytes, after // 2)
                           * random.uniform(1.0, BOUND_SPREAD))

    def step(self) -> bool:
        """Collect if due; whether it did."""
        before = self.memory()
        if self.clock() >= self.full_at:
            reason = "due"
        elif before >= self.memory_bound:
            reason = "memory"
        else:
            return False
        started = time.perf_counter()
        freed = gc.collect()
        pause_ms = (time.perf_counter() - started) * 1000
        # What survived a whole collection is all in the oldest generation (start-up objects,
        # frozen, are in none).
        held = len(gc.get_objects(generation=2))
        after = self.memory()
        self.full_at = self.clock() + self.full_seconds
        self.memory_bound = self._bound(after=after)
        logger.info("whole collection (%s): %.0f ms, %d freed, %d held, %.0f MiB before, "
                    "%.0f MiB after", reason, pause_ms, freed, held, before / 2**20,
                    after / 2**20)
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
