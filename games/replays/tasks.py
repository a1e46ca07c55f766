"""The replays' Celery task: the AI's analysis of a finished duel (see
``games.replays.services``). Idempotent: running it twice stores the same result (its budget
is in search nodes, not seconds). A long game's analysis takes up to about a minute of CPU:
the limits leave room for a busy worker."""

from __future__ import annotations

from celery import shared_task

from games.replays import services

ANALYSIS_SOFT_TIME_LIMIT = 300
ANALYSIS_TIME_LIMIT = 330


@shared_task(
    name="replays.analyse_match",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=ANALYSIS_SOFT_TIME_LIMIT,
    time_limit=ANALYSIS_TIME_LIMIT,
    ignore_result=True,
)
def analyse_match(match_id: int) -> str:
    return str(services.analysis_run(match_id=match_id)["status"])
