"""The Celery app. Its settings are the `CELERY_*` names in `settings.py`.

In the embedded default (no `REDIS_URL`) tasks run eagerly; `task_send` then runs them
in a thread so that a slow task (an AI search) never blocks the event loop of the web process.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")

app = Celery("yourtrumps")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The apps' `tasks` modules, and those of the games app's parts (play, puzzles, replays,
# matchmaking).
app.autodiscover_tasks()
app.autodiscover_tasks(["games.play", "games.puzzles", "games.replays", "games.matchmaking"])


def task_send(name: str, *args: Any) -> None:
    """Send the task registered as `name` to the workers, or, when Celery is eager, run it in
    a daemon thread. Senders name the task, so they need not import the module that runs it
    (every part's tasks are registered in every process: `games.apps`)."""
    task = app.tasks[name]
    if app.conf.task_always_eager:
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


@app.task(name="yourtrumps.ping", ignore_result=False)
def ping() -> str:
    """Answered by any live worker: the tests of the worker itself send it."""
    return "pong"
