"""The load report's seconds: a burst is told from a steady queue."""

from __future__ import annotations

from tests.load.stats import slowest_seconds


def test_the_slow_seconds_are_counted_and_the_worst_named_in_order() -> None:
    sent_at = [100.0 + i / 100 for i in range(500)]  # five seconds, a hundred moves each
    values = [0.010] * 500
    for i in range(100, 200):  # the second second is a little slower
        values[i] = 0.020
    for i in range(200, 300):  # the third second is slow
        values[i] = 0.400
    values[450] = 0.900  # one slow move in the fifth second, below its p99

    figures = slowest_seconds(sent_at, values, over=0.150, worst=2)

    assert figures["seconds"] == 5
    assert figures["over"] == 1
    assert figures["worst"] == [(1, 20, 100), (2, 400, 100)]  # in the run's order


def test_no_moves_no_seconds() -> None:
    assert slowest_seconds([], [], over=0.150) == {"seconds": 0, "over": 0, "worst": []}
