"""Reads of the notifications: the header's badge and list, what one notification says (in
the active language), a player's channels per kind."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.matchmaking.models import ChallengeStatus
from games.matchmaking.selectors import match_page_url
from games.play.models import Seat, SeatResult, Status
from games.play.time_control import TimeControl
from notifications.models import Channel, Kind, Notification, Preference, PushSubscription

# The kinds that ask for an answer now: shown at once on every open page, with a sound.
ALERT_KINDS = frozenset({Kind.CHALLENGE, Kind.REMATCH, Kind.DRAW_DECLINED})


def unread_count(*, user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def _with_parts(rows: Any) -> Any:
    return rows.select_related("user", "actor", "challenge", "match").prefetch_related(
        Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("index"))
    )


def notifications_newest(*, user_id: int, limit: int | None = None) -> list[Notification]:
    rows = Notification.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
    return list(_with_parts(rows)[: limit or settings.NOTIFICATIONS_LIST_LENGTH])


def notification_get(*, notification_id: int) -> Notification | None:
    return _with_parts(Notification.objects.filter(pk=notification_id)).first()


def _opponents(notification: Notification) -> str:
    """The other players of the notification's match, by name."""
    match = notification.match
    if match is None:
        return ""
    names = [seat.display_name for seat in match.seats.all()
             if seat.user_id != notification.user_id]
    return ", ".join(names)


def _actor(notification: Notification) -> str:
    return notification.actor.username if notification.actor is not None else _("deleted user")


def _finished_text(notification: Notification) -> str:
    match = notification.match
    opponents = _opponents(notification)
    if match is None or match.status == Status.ABORTED:
        return _("Your game against %(names)s was aborted.") % {"names": opponents}
    own = next((seat for seat in match.seats.all() if seat.user_id == notification.user_id), None)
    result = own.result if own is not None else SeatResult.NONE
    if result == SeatResult.WIN:
        return _("You won your game against %(names)s.") % {"names": opponents}
    if result == SeatResult.LOSS:
        return _("You lost your game against %(names)s.") % {"names": opponents}
    if result == SeatResult.DRAW:
        return _("Your game against %(names)s was drawn.") % {"names": opponents}
    return _("Your game against %(names)s has ended.") % {"names": opponents}


def notification_text(notification: Notification) -> str:
    """What the notification says, in the active language."""
    kind = notification.kind
    if kind == Kind.CHALLENGE:
        challenge = notification.challenge
        control = TimeControl.of(challenge).label if challenge is not None else ""
        if challenge is not None and challenge.rated:
            words = _("%(name)s challenges you to a rated game, %(time_control)s.")
        else:
            words = _("%(name)s challenges you to a casual game, %(time_control)s.")
        return words % {"name": _actor(notification), "time_control": control}
    if kind == Kind.REMATCH:
        return _("%(name)s offers you a rematch.") % {"name": _actor(notification)}
    if kind == Kind.DRAW_DECLINED:
        return _("%(name)s declined your draw offer.") % {"name": _actor(notification)}
    if kind == Kind.TURN:
        return _("It is your turn against %(names)s.") % {"names": _opponents(notification)}
    if kind == Kind.REMINDER:
        return _("A quarter of your time is left against %(names)s.") % {
            "names": _opponents(notification)}
    if kind == Kind.TABLE_CLOSED:
        # The table is deleted: its count of days is the key's last part.
        days = int(notification.key.rsplit(":", 1)[1])
        return ngettext(
            "Your correspondence table closed: nobody came to fill it in %(days)d day.",
            "Your correspondence table closed: nobody came to fill it in %(days)d days.",
            days) % {"days": days}
    return _finished_text(notification)


def notification_path(notification: Notification) -> str:
    """Where the notification leads: the challenge's page, else the match's (a closed table:
    the lobby, where another is found)."""
    if notification.kind == Kind.TABLE_CLOSED:
        return reverse("matchmaking:lobby")
    if notification.challenge is not None:
        return reverse("matchmaking:challenge", args=[notification.challenge.token])
    if notification.match_id is not None:
        return match_page_url(match_id=notification.match_id)
    return reverse("notifications:list")


def _open_challenge_token(notification: Notification) -> str | None:
    challenge = notification.challenge
    if (notification.kind != Kind.CHALLENGE or challenge is None
            or challenge.status != ChallengeStatus.PENDING
            or challenge.expires_at <= timezone.now()):
        return None
    return challenge.token


def notification_item(notification: Notification) -> dict[str, Any]:
    """One notification as the header's script draws it (`docs/notifications.md`), in the
    active language."""
    token = _open_challenge_token(notification)
    rematch = (notification.kind == Kind.REMATCH and notification.match is not None
               and notification.match.rematch_offer_seat is not None)
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "text": notification_text(notification),
        "url": notification_path(notification),
        "created_ms": int(notification.created_at.timestamp() * 1000),
        "read": notification.read_at is not None,
        "alert": notification.kind in ALERT_KINDS,
        # The challenge's own endpoints (forms posted by the page): only while it is open.
        "accept_url": reverse("matchmaking:challenge_accept", args=[token]) if token else None,
        "decline_url": reverse("matchmaking:challenge_decline", args=[token]) if token else None,
        # A rematch is accepted on the finished game's page, where the offer stands.
        "answer_url": notification_path(notification) if rematch else None,
    }


def notification_items(notifications: Iterable[Notification]) -> list[dict[str, Any]]:
    return [notification_item(notification) for notification in notifications]


def channels_default(kind: str) -> set[str]:
    return set(settings.NOTIFICATIONS_DEFAULT_CHANNELS.get(kind, []))


def preferences_of(*, user_id: int) -> dict[str, set[str]]:
    """The channels of every kind for this player: their choices, else the defaults."""
    chosen = {
        row.kind: {channel for channel, on in ((Channel.EMAIL, row.email),
                                               (Channel.PUSH, row.push)) if on}
        for row in Preference.objects.filter(user_id=user_id)
    }
    return {kind: chosen.get(kind, channels_default(kind)) for kind in Kind.values}


def wants(*, user_id: int, kind: str, channel: str) -> bool:
    row = Preference.objects.filter(user_id=user_id, kind=kind).first()
    if row is None:
        return channel in channels_default(kind)
    return bool(row.email if channel == Channel.EMAIL else row.push)


def push_offered() -> bool:
    """Whether this site sends Web Push at all (it has its VAPID keys)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def push_subscriptions(*, user_id: int) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("pk"))
