"""The deadline watch: a thread that enforces, a few times a second, every match deadline that
has come (`services.deadlines_enforce`: flags, trump-choice timeouts, a late AI's task).

It runs in every Celery worker process (started when the worker is ready, `games.play.tasks`) and,
in the embedded default where Celery is eager and there is no worker, in the web process
(started by `yourtrumps_site.asgi`). Several watches are harmless: a deadline is enforced
under its match's lock, and only while it is due.

A part above play may ask the watch to run a job of its own on every look (`also_run`: the
arenas' pairing and clock, `games.tournaments.tasks`); each job must be as harmless run by
several watches at once, and a failing job does not stop the others.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections, connection

logger = logging.getLogger(__name__)

_starting = threading.Lock()
_watch: tuple[threading.Thread, threading.Event] | None = None
_jobs: list[Callable[[], object]] = []


def also_run(job: Callable[[], object]) -> None:
    """Run `job` on every look of this process's watch (once, however often it is asked)."""
    if job not in _jobs:
        _jobs.append(job)


def interval_seconds() -> float:
    """How often the watch looks: how late at most a flag falls after the clock's zero."""
    return float(settings.GAMES_DEADLINE_WATCH_SECONDS)


def start() -> None:
    """Start this process's watch, unless it runs already."""
    global _watch
    with _starting:
        if _watch is not None and _watch[0].is_alive():
            return
        stopping = threading.Event()
        thread = threading.Thread(target=_watch_until, args=(interval_seconds(), stopping),
                                  name="deadline-watch", daemon=True)
        _watch = (thread, stopping)
        thread.start()


def stop(timeout: float = 5.0) -> None:
    """Stop this process's watch, if it runs (a worker shutting down, a test)."""
    global _watch
    with _starting:
        watch, _watch = _watch, None
    if watch is not None:
        thread, stopping = watch
        stopping.set()
        thread.join(timeout)


def start_if_no_worker() -> None:
    """Where Celery is eager there is no worker to watch the deadlines: this process does."""
    from infra.tasks import tasks_eager

    if tasks_eager():
        start()


def _watch_until(interval: float, stopping: threading.Event) -> None:
    from games.play import services

    failing = False
    while not stopping.wait(interval):
        try:
            services.deadlines_enforce()
            _run_jobs()
        except Exception:
            # The database or the broker is away: say so once, and keep trying.
            if not failing:
                logger.exception("the deadline watch failed; it keeps trying")
            failing = True
            _close_quietly()
        else:
            if failing:
                logger.warning("the deadline watch works again")
            failing = False
        close_old_connections()
    # The thread ends here: its session would otherwise stay open until it is collected.
    _close_quietly()


def _run_jobs() -> None:
    for job in list(_jobs):
        try:
            job()
        except Exception:
            logger.exception("a job of the deadline watch failed")
            _close_quietly()


def _close_quietly() -> None:
    try:
        connection.close()
    except Exception:
        logger.debug("closing the deadline watch's connection failed", exc_info=True)
