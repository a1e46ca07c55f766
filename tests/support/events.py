"""The moments of play (`games.play.events`) a test's code sends, as the notifications would
receive them: real Celery tasks, registered under the events' names for the test, record each
(name, arguments); run eagerly, in a thread, as on the embedded default. The site's own
subscribers are registered again afterwards."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from games.play import events

NAMES = (events.TURN_TASK, events.REMINDER_TASK, events.FINISHED_TASK, events.REMATCH_TASK,
         events.DRAW_DECLINED_TASK, events.SEEN_TASK)


class Received(queue.Queue):
    """What was sent: `get()` the next, or `settled()` every one sent so far."""

    def settled(self, timeout: float = 30.0) -> list[tuple[str, tuple[object, ...]]]:
        """Every moment sent so far, once the threads that run them have run."""
        for thread in threading.enumerate():
            if thread.name.startswith("eager-"):
                thread.join(timeout)
        out = []
        while not self.empty():
            out.append(self.get_nowait())
        return out


@contextmanager
def recording_events() -> Iterator[Received]:
    from yourtrumps_site.celery import app

    received = Received()

    def record(self, *args: object) -> None:
        received.put((self.name, args))

    subscribers = {name: app.tasks.get(name) for name in NAMES}
    for name in NAMES:
        if subscribers[name] is not None:
            app.tasks.unregister(name)
        app.task(name=name, bind=True)(record)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield received
    finally:
        app.conf.task_always_eager = eager
        for name, task in subscribers.items():
            app.tasks.unregister(name)
            if task is not None:  # the site's own subscriber (the notifications) again
                app.tasks.register(task)
