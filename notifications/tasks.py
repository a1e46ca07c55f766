"""Celery tasks of the notifications; each calls a service and is harmless run twice (a
notification is stored once per moment, a mail marked sent under the player's lock).

- `notify.email(notification_id)`, `notify.push(notification_id)`: the ways out
  (`notifications.delivery`), sent by `notification_create` once its transaction commits.
- `notify.match_finished(match_id)`, `notify.correspondence_turn(match_id, user_id, ply,
  due)`, `notify.correspondence_reminder(...)`, `notify.rematch_offered(match_id, seat)`,
  `notify.draw_declined(match_id, version, offerer, decliner)`, `notify.match_seen(match_id,
  user_id)`: the moments of play (`games.play.events`).
- `notify.prune()`: the periodic removal of old notifications (`CELERY_BEAT_SCHEDULE`).
"""

from __future__ import annotations

from celery import shared_task

from notifications import delivery, services

OPTIONS = {"acks_late": True, "reject_on_worker_lost": True}


@shared_task(name="notify.email", **OPTIONS)
def email(notification_id: int) -> bool:
    return delivery.notification_email_send(notification_id=notification_id)


@shared_task(name="notify.push", **OPTIONS)
def push(notification_id: int) -> int:
    return delivery.notification_push_send(notification_id=notification_id)


@shared_task(name="notify.match_finished", **OPTIONS)
def match_finished(match_id: int) -> int:
    return services.notification_match_finished(match_id=match_id)


@shared_task(name="notify.correspondence_turn", **OPTIONS)
def correspondence_turn(match_id: int, user_id: int, ply: int, due: str | None = None) -> bool:
    return services.notification_turn(match_id=match_id, user_id=user_id, ply=ply) is not None


@shared_task(name="notify.correspondence_reminder", **OPTIONS)
def correspondence_reminder(match_id: int, user_id: int, ply: int, due: str | None = None) -> bool:
    return services.notification_turn(
        match_id=match_id, user_id=user_id, ply=ply, reminder=True
    ) is not None


@shared_task(name="notify.rematch_offered", **OPTIONS)
def rematch_offered(match_id: int, seat: int) -> int:
    return len(services.notification_rematch_offer(match_id=match_id, seat=seat))


@shared_task(name="notify.draw_declined", **OPTIONS)
def draw_declined(match_id: int, version: int, offerer: int, decliner: int) -> bool:
    return services.notification_draw_declined(
        match_id=match_id, version=version, offerer=offerer, decliner=decliner
    ) is not None


@shared_task(name="notify.match_seen", **OPTIONS)
def match_seen(match_id: int, user_id: int) -> int:
    return services.notifications_mark_read_of_match(user_id=user_id, match_id=match_id)


@shared_task(name="notify.prune", **OPTIONS)
def prune() -> int:
    return services.notifications_prune()
