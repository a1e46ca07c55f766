"""The Celery app. Its settings are the `CELERY_*` names in `settings.py`.

In the embedded default (no `REDIS_URL`) tasks run eagerly; `enqueue_on_commit` then runs them
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
# The apps' `tasks` modules, and those of the games app's parts (play, replays).
app.autodiscover_tasks()
app.autodiscover_tasks(["games.play", "games.replays"])


def enqueue(task: Any, *args: Any, **kwargs: Any) -> None:
    """Send a task to the workers, or run it in a daemon thread when Celery is eager."""
    if app.conf.task_always_eager:
        threading.Thread(
            target=_run_eagerly, args=(task, args, kwargs), daemon=True, name=f"eager-{task.name}"
        ).start()
    else:
        task.apply_async(args=args, kwargs=kwargs)


def enqueue_by_name(name: str, *args: Any) -> None:
    """`enqueue` for a task named as it is registered (`games.ai_move`): the services that
    send it need not import the module that runs it."""
    enqueue(app.tasks[name], *args)


def _run_eagerly(task: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from django.db import close_old_connections

    try:
        task.apply(args=args, kwargs=kwargs)
    finally:
        close_old_connections()


def enqueue_on_commit(task: Any, *args: Any, **kwargs: Any) -> None:
    """Enqueue once the surrounding transaction commits, so the task sees what it was sent for."""
    from django.db import transaction

    transaction.on_commit(lambda: enqueue(task, *args, **kwargs))


@app.task(name="yourtrumps.ping", ignore_result=False)
def ping() -> str:
    """Answered by any live worker: used by `/healthz` and the tests of the worker itself."""
    return "pong"
