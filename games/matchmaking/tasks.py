"""Celery tasks of matchmaking; each calls a service and is harmless run twice.

- `matchmaking.close_stale_tables()`: the periodic closing of the open correspondence tables
  nobody filled in `MATCHMAKING_CORRESPONDENCE_TABLE_DAYS` (`CELERY_BEAT_SCHEDULE`; on the
  slow queue, since it runs over the tables).
"""

from __future__ import annotations

from celery import shared_task

from games.matchmaking import tables


@shared_task(name="matchmaking.close_stale_tables", acks_late=True, reject_on_worker_lost=True)
def close_stale_tables() -> int:
    return tables.correspondence_tables_close_stale()
