"""The notifications of the moments matchmaking tells of (`games.matchmaking.signals`), made in
the transaction that made the moment."""

from __future__ import annotations

from typing import Any

from games.matchmaking import signals as matchmaking
from games.matchmaking.models import Challenge, Table
from notifications import services


def _challenge_issued(*, challenge: Challenge, **_: Any) -> None:
    services.notification_challenge(challenge=challenge)


def _challenge_answered(*, challenge: Challenge, **_: Any) -> None:
    services.notification_challenge_answered(challenge=challenge)


def _table_closed(*, user_id: int, table: Table, days: int, now: Any, **_: Any) -> None:
    services.notification_table_closed(user_id=user_id, table=table, days=days, now=now)


def connect_signals() -> None:
    matchmaking.challenge_issued.connect(_challenge_issued, sender=Challenge,
                                         dispatch_uid="notifications.challenge_issued")
    matchmaking.challenge_answered.connect(_challenge_answered, sender=Challenge,
                                           dispatch_uid="notifications.challenge_answered")
    matchmaking.table_closed.connect(_table_closed, sender=Table,
                                     dispatch_uid="notifications.table_closed")
