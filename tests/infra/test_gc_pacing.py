"""The servers' collections: none of their own, a whole one when due or when a burst of objects
is held, and what forms a cycle is freed by it."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from collections.abc import Iterator

import pytest

from infra import gc_pacing


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting alone never frees it


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector as a server runs it: its own collection off, and what was there before
    frozen out of the walks (as `yourtrumps_site/asgi.py` freezes the start-up objects)."""
    was_enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_a_cycle_waits_for_the_whole_collection_and_is_freed_by_it(collector_off: None) -> None:
    clock = _Clock()
    pacer = gc_pacing.Pacer(full_seconds=600, clock=clock)
    assert clock.now + 300 <= pacer.full_at <= clock.now + 600
    node = _Node()
    gone = weakref.ref(node)
    del node

    clock.now = pacer.full_at - 1
    assert not pacer.step()
    assert gone() is not None

    clock.now = pacer.full_at
    assert pacer.step()
    assert gone() is None
    assert pacer.full_at == clock.now + 600
    assert not pacer.step()


def test_a_burst_of_objects_brings_the_collection_forward(collector_off: None) -> None:
    clock = _Clock()
    pacer = gc_pacing.Pacer(full_seconds=3600, full_after_objects=10_000, clock=clock)
    node = _Node()
    gone = weakref.ref(node)
    del node
    assert not pacer.step()

    held = [[i] for i in range(16_000)]  # objects the collector tracks, all alive
    assert pacer.step()
    assert gone() is None
    assert len(held) == 16_000
    assert not pacer.step()  # the count starts again from what the collection left


def test_the_bound_grows_with_what_the_process_holds(collector_off: None) -> None:
    clock = _Clock()
    pacer = gc_pacing.Pacer(full_seconds=3600, full_after_objects=10_000, clock=clock)
    held = [[i] for i in range(40_000)]
    assert pacer.step()  # past its first bound, 10,000-15,000 objects more
    assert 40_000 <= pacer.new_objects_bound <= 41_000 * gc_pacing.BOUND_SPREAD

    held += [[i] for i in range(30_000)]  # alive too: no reason to walk them all again yet
    assert not pacer.step()
    held += [[i] for i in range(40_000)]
    assert pacer.step()
    assert len(held) == 110_000


def test_servers_under_the_same_load_reach_their_bounds_at_different_times() -> None:
    clock = _Clock()
    bounds = {gc_pacing.Pacer(full_after_objects=1_000_000, clock=clock).new_objects_bound
              for _ in range(20)}
    assert all(1_000_000 <= bound <= 1_000_000 * gc_pacing.BOUND_SPREAD for bound in bounds)
    assert len(bounds) > 10


def test_servers_started_together_do_not_collect_together() -> None:
    clock = _Clock()
    firsts = {gc_pacing.Pacer(full_seconds=600, clock=clock).full_at for _ in range(20)}
    assert all(clock.now + 300 <= at <= clock.now + 600 for at in firsts)
    assert len(firsts) > 10


def test_start_turns_the_process_s_own_collection_off_and_paces_it_once() -> None:
    script = (
        "import gc, threading\n"
        "from infra import gc_pacing\n"
        "gc_pacing.start()\n"
        "gc_pacing.start()\n"
        "print(gc.isenabled(), sum(t.name == 'gc-pacing' for t in threading.enumerate()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["False", "1"]
