"""The deadline watch's thread: it looks again and again, and a failure (the database away)
is said once and does not stop it."""

from __future__ import annotations

import itertools
import logging
import threading
import time

from django.db import OperationalError

from games.play import deadline_watch, services


def test_the_watch_outlives_failures_and_says_so_once(monkeypatch, caplog):
    calls: list[float] = []

    def enforce() -> int:
        calls.append(time.monotonic())
        if len(calls) <= 3:
            raise OperationalError("the database is away")
        return 0

    monkeypatch.setattr(services, "deadlines_enforce", enforce)
    monkeypatch.setattr(deadline_watch, "interval_seconds", lambda: 0.01)
    caplog.set_level(logging.WARNING, logger="games.play.deadline_watch")
    deadline_watch.start()
    deadline_watch.start()  # a second start while it runs is the same watch
    try:
        deadline = time.monotonic() + 10
        while len(calls) < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        deadline_watch.stop()
    stopped_at = len(calls)

    assert stopped_at >= 6
    # Stopped means stopped: the watch's thread has ended, so no call can follow.
    assert not any(t.name == "deadline-watch" and t.is_alive() for t in threading.enumerate())
    assert len(calls) == stopped_at
    messages = [record.getMessage() for record in caplog.records]
    assert messages == ["the deadline watch failed; it keeps trying",
                        "the deadline watch works again"]
    intervals = [b - a for a, b in itertools.pairwise(calls)]
    assert min(intervals) > 0.005  # one call per interval: a second start made no second watch
