"""The Celery app. Its settings are the `CELERY_*` names in `settings.py`. The apps send
their tasks by name through `infra.tasks`, which reads this app as Celery's current one."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")

app = Celery("yourtrumps")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The apps' `tasks` modules, and those of the games app's parts (play, puzzles, replays,
# matchmaking).
app.autodiscover_tasks()
app.autodiscover_tasks(["games.play", "games.puzzles", "games.replays", "games.matchmaking"])


@app.task(name="yourtrumps.ping", ignore_result=False)
def ping() -> str:
    """Answered by any live worker: the tests of the worker itself send it."""
    return "pong"
