"""Celery tasks of the arenas; each calls a service and is harmless run twice.

- `tournaments.match_finished(match_id)`: a match ended (`games.play.events`): if it is an
  arena's game, score it and pair its players again (default queue: a player waits on it).
- `tournaments.schedule()`: the hourly arenas of the hours ahead (`CELERY_BEAT_SCHEDULE`;
  slow queue, as every beat task).

The arenas' own clock is no task: the deadline watch of every worker (and of the web process
where Celery is eager) runs `tick` on each look, which acts at most every
`TOURNAMENTS_WAVE_SECONDS` in a process (`services.tournaments_tick`).
"""

from __future__ import annotations

import threading
import time

from celery import shared_task
from django.conf import settings

from games.play import deadline_watch
from games.tournaments import services


@shared_task(name="tournaments.match_finished", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def match_finished(match_id: int) -> bool:
    return services.tournament_game_score(match_id=match_id)


@shared_task(name="tournaments.schedule", acks_late=True, reject_on_worker_lost=True)
def schedule() -> int:
    return len(services.tournaments_schedule())


_last_tick = [0.0]
_tick_lock = threading.Lock()


def tick() -> None:
    """The arenas' clock on the deadline watch: at most every `TOURNAMENTS_WAVE_SECONDS`."""
    with _tick_lock:
        now = time.monotonic()
        if now - _last_tick[0] < settings.TOURNAMENTS_WAVE_SECONDS:
            return
        _last_tick[0] = now
    services.tournaments_tick()


deadline_watch.also_run(tick)
