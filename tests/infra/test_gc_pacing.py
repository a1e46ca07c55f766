"""The servers' collections: none of their own, a whole one when due or when the process's memory
has grown by half, and what forms a cycle is freed by it."""

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


class _Memory:
    def __init__(self) -> None:
        self.bytes = 200 * 2**20

    def __call__(self) -> int:
        return self.bytes


def test_a_cycle_waits_for_the_whole_collection_and_is_freed_by_it(collector_off: None) -> None:
    clock = _Clock()
    pacer = gc_pacing.Pacer(full_seconds=600, clock=clock, memory=_Memory())
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


def test_memory_grown_by_half_brings_the_collection_forward(collector_off: None) -> None:
    clock, memory = _Clock(), _Memory()
    pacer = gc_pacing.Pacer(full_seconds=3600, growth_min_bytes=10 * 2**20, clock=clock,
                            memory=memory)
    # After a collection at 200 MiB: the next at 300-350 MiB (half of it, drawn per server).
    assert 300 * 2**20 <= pacer.memory_bound <= 350 * 2**20
    node = _Node()
    gone = weakref.ref(node)
    del node
    memory.bytes = 299 * 2**20  # sockets filling the process: no garbage worth a pause
    assert not pacer.step()
    assert gone() is not None

    memory.bytes = 360 * 2**20
    assert pacer.step()
    assert gone() is None
    # Relative to what this one left: at 360 MiB, the next is 180-270 MiB more.
    assert 540 * 2**20 <= pacer.memory_bound <= 630 * 2**20
    assert not pacer.step()


def test_a_small_process_waits_for_the_least_growth(collector_off: None) -> None:
    clock, memory = _Clock(), _Memory()
    memory.bytes = 20 * 2**20
    pacer = gc_pacing.Pacer(growth_min_bytes=128 * 2**20, clock=clock, memory=memory)
    assert 148 * 2**20 <= pacer.memory_bound <= (20 + 192) * 2**20
    assert gc_pacing.resident_bytes() > 0  # this process's, as a server reads its own


def test_servers_under_the_same_load_reach_their_bounds_at_different_times() -> None:
    clock, memory = _Clock(), _Memory()
    bounds = {gc_pacing.Pacer(clock=clock, memory=memory).memory_bound for _ in range(20)}
    assert all(200 * 2**20 + gc_pacing.GROWTH_MIN_BYTES <= bound
               <= 200 * 2**20 + gc_pacing.GROWTH_MIN_BYTES * gc_pacing.BOUND_SPREAD
               for bound in bounds)
    assert len(bounds) > 10


def test_servers_started_together_do_not_collect_together() -> None:
    clock = _Clock()
    firsts = {gc_pacing.Pacer(full_seconds=600, clock=clock, memory=_Memory()).full_at
              for _ in range(20)}
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
