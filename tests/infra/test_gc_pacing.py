"""The paced collections find garbage that Python's own collection, held back, would not."""

from __future__ import annotations

import gc
import threading
import time
import weakref

from infra import gc_pacing


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting alone never frees it


def _cycle_freed_within(seconds: float) -> bool:
    node = _Node()
    gone = weakref.ref(node)
    del node
    deadline = time.monotonic() + seconds
    while gone() is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    return gone() is None


def test_a_cycle_is_collected_by_the_pace_alone() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(1_000_000_000)  # Python's own collection never comes in this test
    try:
        gc_pacing.start()
        gc_pacing.start()  # once per process, however often it is asked
        assert sum(t.name == "gc-pacing" for t in threading.enumerate()) == 1
        assert _cycle_freed_within(gc_pacing.YOUNG_SECONDS * 20)
    finally:
        gc.set_threshold(*thresholds)
