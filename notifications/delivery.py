"""The notifications that leave the site: e-mail and Web Push, sent by the Celery tasks
`notify.email` and `notify.push` (`notifications.tasks`), each in the player's saved language.

E-mail: at most one per game (or challenge) and player per `NOTIFICATIONS_EMAIL_GAP_SECONDS`,
with a link that unsubscribes from that kind without logging in (a signed token), also in
the `List-Unsubscribe` header. Web Push: RFC 8030 with VAPID (RFC 8292) and the payload
encrypted for the browser (aes128gcm, RFC 8291), through pywebpush, only to the public push
services `notifications.endpoints` allows, with short timeouts; a subscription the push service
says is gone (404, 410) is removed, and so is one that fails `WEBPUSH_MAX_FAILURES` times in a
row. Both tasks run on the outbound queue (`CELERY_OUTBOUND_QUEUE`), away from the AI's moves.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from accounts.languages import user_language
from accounts.models import User
from notifications import selectors
from notifications.endpoints import EndpointRefused, PinnedPushSession, endpoint_check
from notifications.models import Channel, Notification, PushSubscription

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
ALL_KINDS = "all"


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    """A token that stops e-mail of `kind` (or of every kind: `all`) for this player, for
    whoever holds it: it is only ever put in that player's own mail."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_token_read(token: str) -> tuple[int, str] | None:
    """The (user id, kind) of a token made by `unsubscribe_token`, or None if it is not one."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    kind = data.get("k")
    if not isinstance(kind, str):
        return None
    return data["u"], kind


def _language(user: User) -> str:
    return user_language(user) or settings.LANGUAGE_CODE


def _absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def _recently_emailed(notification: Notification, now: datetime) -> bool:
    since = now - timedelta(seconds=settings.NOTIFICATIONS_EMAIL_GAP_SECONDS)
    if notification.match_id is not None:
        same = Q(match_id=notification.match_id)
    elif notification.challenge_id is not None:
        same = Q(challenge_id=notification.challenge_id)
    else:
        return False
    return Notification.objects.filter(
        same, user_id=notification.user_id, emailed_at__gt=since
    ).exists()


def notification_email_send(*, notification_id: int, now: datetime | None = None) -> bool:
    """E-mail the notification if the player wants it by e-mail, has an address, has not read
    it yet and got no mail of that game in the last gap. True if a mail went out.

    The player's row is locked while deciding, so two workers (a task delivered twice, two
    moments of one game at once) never both mail; the mail goes once the decision commits."""
    now = now or timezone.now()
    with transaction.atomic():
        head = Notification.objects.filter(pk=notification_id).values("user_id").first()
        if head is None:
            return False
        user = User.objects.select_for_update().filter(pk=head["user_id"]).first()
        notification = selectors.notification_get(notification_id=notification_id)
        if (user is None or notification is None or not user.is_active or not user.email
                or notification.emailed_at is not None or notification.read_at is not None):
            return False
        if not selectors.wants(user_id=user.pk, kind=notification.kind, channel=Channel.EMAIL):
            return False
        if _recently_emailed(notification, now):
            return False
        Notification.objects.filter(pk=notification.pk).update(emailed_at=now)
        # Sent once the mark is committed: a task delivered again finds it marked, so a mail
        # goes out at most once (a worker lost between the two loses that one mail).
        transaction.on_commit(lambda: _email(user, notification))
    return True


def _email(user: User, notification: Notification) -> None:
    with translation.override(_language(user)):
        text = selectors.notification_text(notification)
        token = unsubscribe_token(user_id=user.pk, kind=notification.kind)
        unsubscribe_url = _absolute(reverse("notifications:unsubscribe", args=[token]))
        context = {
            "user": user,
            "text": text,
            "url": _absolute(selectors.notification_path(notification)),
            "settings_url": _absolute(reverse("notifications:settings")),
            "unsubscribe_url": unsubscribe_url,
            "kind_label": notification.get_kind_display(),
        }
        body = render_to_string("notifications/email.txt", context)
        subject = _("Your Trumps: %(text)s") % {"text": text}
    message = EmailMessage(
        subject=subject[:180], body=body, to=[user.email],
        headers={
            # No List-Unsubscribe-Post (RFC 8058): its POST carries no CSRF token, and no view
            # of the site is exempt; a mail client that opens this link unsubscribes as well.
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.send()


def push_payload(notification: Notification, language: str) -> str:
    """What the service worker shows (`static/notifications-sw.js` reads these fields)."""
    with translation.override(language):
        return json.dumps({
            "title": _("Your Trumps"),
            "body": selectors.notification_text(notification),
            "url": selectors.notification_path(notification),
            "tag": notification.key,
        })


def notification_push_send(*, notification_id: int) -> int:
    """Push the notification to every browser the player subscribed, if they want it pushed
    and the site has its VAPID keys. Returns how many push services took it.

    Each subscription is sent to on its own (at once, each in a thread of this task): one that
    is refused, unreachable, silent or broken costs that subscription one failure and never
    the others their message."""
    if not selectors.push_offered():
        return 0
    notification = selectors.notification_get(notification_id=notification_id)
    if notification is None or not selectors.wants(
            user_id=notification.user_id, kind=notification.kind, channel=Channel.PUSH):
        return 0
    subscriptions = selectors.push_subscriptions(user_id=notification.user_id)
    if not subscriptions:
        return 0
    payload = push_payload(notification, _language(notification.user))
    # A player has at most WEBPUSH_SUBSCRIPTIONS_PER_USER browsers: all at once.
    threads = min(len(subscriptions), max(1, settings.WEBPUSH_SUBSCRIPTIONS_PER_USER))
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="push") as pool:
        outcomes = list(pool.map(lambda subscription: _push(subscription, payload),
                                 subscriptions))
    for subscription, outcome in zip(subscriptions, outcomes, strict=True):
        _record(subscription, outcome)
    return outcomes.count(SENT)


SENT, GONE, FAILED = "sent", "gone", "failed"


def _push(subscription: PushSubscription, payload: str) -> str:
    """Send one message; its outcome. No database here: it runs in a thread of its own."""
    try:
        target = endpoint_check(subscription.endpoint)
        with PinnedPushSession(target) as session:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=payload,
                vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
                ttl=settings.WEBPUSH_TTL_SECONDS,
                timeout=(settings.WEBPUSH_CONNECT_TIMEOUT_SECONDS,  # type: ignore[arg-type]
                         settings.WEBPUSH_READ_TIMEOUT_SECONDS),
                requests_session=session,
            )
    except EndpointRefused as refused:
        logger.warning("push to subscription %s refused: %s", subscription.pk, refused)
        return GONE if refused.lasting else FAILED
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):  # the browser unsubscribed, or the service forgot it
            return GONE
        logger.warning("push to subscription %s failed: %s", subscription.pk, error)
        return FAILED
    except Exception as error:  # unreachable, silent, a key or claim refused: this one only
        logger.warning("push to subscription %s failed: %r", subscription.pk, error)
        return FAILED
    return SENT


def _record(subscription: PushSubscription, outcome: str) -> None:
    """A success counts the failures from nought again; a subscription gone, or failing
    `WEBPUSH_MAX_FAILURES` times in a row, is removed."""
    rows = PushSubscription.objects.filter(pk=subscription.pk)
    if outcome == SENT:
        rows.exclude(failures=0).update(failures=0)
    elif outcome == GONE:
        rows.delete()
    else:
        rows.update(failures=F("failures") + 1)
        rows.filter(failures__gte=settings.WEBPUSH_MAX_FAILURES).delete()
