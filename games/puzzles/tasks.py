"""The puzzles' Celery task: cut a newly finished duel's puzzles (sent by
``games.play.services.finishing`` once the end commits). Idempotent: a match is scanned
once (``PuzzleScan``) and a position stored once."""

from __future__ import annotations

from celery import shared_task

from games.puzzles import services

PUZZLES_SOFT_TIME_LIMIT = 600
PUZZLES_TIME_LIMIT = 630


@shared_task(
    name="puzzles.from_match",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=PUZZLES_SOFT_TIME_LIMIT,
    time_limit=PUZZLES_TIME_LIMIT,
    ignore_result=True,
)
def puzzles_from_match(match_id: int) -> int:
    return services.puzzles_from_match(match_id=match_id)
