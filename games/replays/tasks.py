"""The replays' Celery task: the AI's analysis of a finished duel (see
``games.replays.services``). Idempotent: running it twice stores the same result."""

from __future__ import annotations

from celery import shared_task

from games.replays import services

ANALYSIS_SOFT_TIME_LIMIT = 120
ANALYSIS_TIME_LIMIT = 150


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
