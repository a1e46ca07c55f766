"""Sending a Celery task by its registered name, so that a sender need not import the module
that runs it (every part's tasks are registered in every process: `games.apps`). The Celery
app itself is the project's (`yourtrumps_site.celery`, the current app of every process).

In the embedded default (no `REDIS_URL`) tasks run eagerly; `task_send` then runs them in a
thread so that a slow task (an AI search) never blocks the event loop of the web process.
"""

from __future__ import annotations

import threading
from typing import Any

from celery import current_app


def tasks_eager() -> bool:
    """Whether tasks run in this process (the embedded default) rather than on workers."""
    return bool(current_app.conf.task_always_eager)


def task_registered(name: str) -> bool:
    """Whether a part registered a task under `name` (a subscriber of an event)."""
    return name in current_app.tasks


def task_send(name: str, *args: Any) -> None:
    """Send the task registered as `name` to the workers, or, when Celery is eager, run it in
    a daemon thread."""
    task = current_app.tasks[name]
    if tasks_eager():
        threading.Thread(
            target=_run_eagerly, args=(task, args), daemon=True, name=f"eager-{name}"
        ).start()
    else:
        task.apply_async(args=args)


def task_send_on_commit(name: str, *args: Any) -> None:
    """`task_send` once the surrounding transaction commits, so the task sees what it was
    sent for."""
    from django.db import transaction

    transaction.on_commit(lambda: task_send(name, *args))


def _run_eagerly(task: Any, args: tuple[Any, ...]) -> None:
    from django.db import close_old_connections

    try:
        task.apply(args=args)
    finally:
        close_old_connections()
