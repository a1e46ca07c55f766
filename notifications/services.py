"""Notification services (HackSoft style: keyword-only, typed).

`notification_create` is the one door: it stores the notification once per (user, key) and,
once the caller's transaction commits, tells the player's open pages (the site socket's group
`notify-<user id>`) and sends the e-mail and push tasks (`notify.email`, `notify.push`), which
decide by the player's channels. The other services name the moments that make one
(`notification_challenge`, `notification_rematch_offer`, ...): those of matchmaking are
called on its signals (`notifications.receivers`), inside the transactions of its services,
so that a rolled-back change tells nothing; those of play by the tasks of its events
(`games.play.events`), once the change that made the moment has committed.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.matchmaking.models import Challenge, Table
from games.play.checks import is_watching
from games.play.models import Match, Seat, Status
from infra.group_send import group_send_all
from infra.tasks import task_send_on_commit
from notifications.models import Kind, Notification, Preference, PushSubscription
from notifications.selectors import preferences_of

TURN_KINDS = (Kind.TURN, Kind.REMINDER)
"""The "your turn" notifications: one unread per game, none while its page is in view."""

EMAIL_TASK = "notify.email"
PUSH_TASK = "notify.push"


def notify_group(user_id: int) -> str:
    """The channel-layer group of every open page of a player (the site socket joins it)."""
    return f"notify-{user_id}"


def _tell_pages(user_id: int, event: dict[str, object]) -> None:
    # A send that fails is logged: the pages read the list again on their next connect.
    group_send_all([(notify_group(user_id), event)])


def notification_create(
    *,
    user_id: int,
    kind: str,
    key: str,
    actor_id: int | None = None,
    match_id: int | None = None,
    challenge_id: int | None = None,
    now: datetime | None = None,
) -> Notification | None:
    """Tell `user_id` of the moment `key` (of `kind`). Returns the new notification, or None
    when that moment was told already (a retried task, a service called again)."""
    now = now or timezone.now()
    with transaction.atomic():
        notification, created = Notification.objects.get_or_create(
            user_id=user_id, key=key,
            defaults={"kind": kind, "actor_id": actor_id, "match_id": match_id,
                      "challenge_id": challenge_id, "created_at": now},
        )
        if not created:
            return None
        notification_id = notification.pk
        transaction.on_commit(
            lambda: _tell_pages(user_id, {"type": "notify.new", "id": notification_id})
        )
        task_send_on_commit(EMAIL_TASK, notification_id)
        task_send_on_commit(PUSH_TASK, notification_id)
    return notification


# --- the moments ------------------------------------------------------------------------------


def notification_challenge(*, challenge: Challenge) -> Notification | None:
    """A player was challenged (an open link tells no one)."""
    if challenge.challenged_id is None:
        return None
    return notification_create(
        user_id=challenge.challenged_id, kind=Kind.CHALLENGE, key=f"challenge:{challenge.pk}",
        actor_id=challenge.challenger_id, challenge_id=challenge.pk, now=challenge.created_at,
    )


def _people(seats: list[Seat]) -> list[Seat]:
    """The accounts that played the match: a person whose seat the AI took over included."""
    return [seat for seat in seats
            if seat.user_id is not None and (not seat.is_ai or seat.taken_over)]


def _match_and_seats(match_id: int) -> tuple[Match | None, list[Seat]]:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None, []
    return match, list(Seat.objects.filter(match=match).order_by("index"))


def notification_rematch_offer(
    *, match_id: int, seat: int, now: datetime | None = None
) -> list[Notification]:
    """`seat` offered a rematch of the match: every other person of it is told (once)."""
    match, seats = _match_and_seats(match_id)
    if match is None:
        return []
    told = []
    for other in _people(seats):
        if other.index == seat or other.user_id is None:
            continue
        notification = notification_create(
            user_id=other.user_id, kind=Kind.REMATCH, key=f"rematch:{match.pk}",
            actor_id=seats[seat].user_id, match_id=match.pk, now=now,
        )
        if notification is not None:
            told.append(notification)
    return told


def notification_draw_declined(
    *, match_id: int, version: int, offerer: int, decliner: int,
    now: datetime | None = None,
) -> Notification | None:
    """`decliner` declined the draw `offerer` offered, at the match's `version` (once)."""
    match, seats = _match_and_seats(match_id)
    if match is None:
        return None
    user_id = seats[offerer].user_id
    if user_id is None or seats[offerer].is_ai:
        return None
    if seats[decliner].is_ai:
        # The AI answers within moments of the offer, on the board the offerer is at; a
        # notification could name no person.
        return None
    return notification_create(
        user_id=user_id, kind=Kind.DRAW_DECLINED, key=f"draw_declined:{match.pk}:{version}",
        actor_id=seats[decliner].user_id, match_id=match.pk, now=now,
    )


def notification_match_finished(*, match_id: int, now: datetime | None = None) -> int:
    """A match ended: the people who were not at its page are told. Returns how many."""
    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status not in (Status.FINISHED, Status.ABORTED):
        return 0
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    told = 0
    with transaction.atomic():  # every player's at once
        for seat in _people(seats):
            if seat.user_id is None or (
                    seat.present_until is not None and seat.present_until > now):
                continue  # watching the end on the board already
            if notification_create(user_id=seat.user_id, kind=Kind.FINISHED,
                                   key=f"finished:{match_id}", match_id=match_id, now=now):
                told += 1
    return told


def notification_turn(
    *, match_id: int, user_id: int, ply: int, reminder: bool = False,
    now: datetime | None = None,
) -> Notification | None:
    """It is `user_id`'s turn at `ply` of a correspondence game (`reminder`: and a quarter of
    the time is left). Nothing when the game has moved on meanwhile, when the player has the
    game's page in view and focused (they see it), or when a turn of that game they have not
    read yet is there: one unread "your turn" per game."""
    now = now or timezone.now()
    with transaction.atomic():
        # The match's row is locked while it looks (as the seats' focus changes under it), so
        # two turns of one game told at once make one. No key lock: the notification that
        # refers to the match is written beside it.
        match = Match.objects.select_for_update(no_key=True).filter(pk=match_id).first()
        if match is None or match.is_over or match.ply != ply:
            return None
        # A seat the AI took over keeps its person, who has left that game.
        seat = Seat.objects.filter(match=match, user_id=user_id, ai_level__isnull=True).first()
        if seat is None or is_watching(seat, seat.focused, now):
            return None  # gone, or looking at the board: they see their turn come
        if Notification.objects.filter(user_id=user_id, match_id=match_id, kind__in=TURN_KINDS,
                                       read_at__isnull=True).exists():
            return None  # one unread "your turn" per game
        kind = Kind.REMINDER if reminder else Kind.TURN
        # The trump choices and the first move all come at ply 0: a player who chooses a
        # trump and then leads has two turns there.
        phase = ":trumps" if match.status == Status.TRUMPS else ""
        return notification_create(user_id=user_id, kind=kind,
                                   key=f"{kind}:{match_id}:{ply}{phase}",
                                   match_id=match_id, now=now)


def notification_table_closed(
    *, user_id: int, table: Table, days: int, now: datetime | None = None
) -> Notification | None:
    """An open correspondence table `user_id` sat at closed, nobody having filled it in `days`
    days. The table is deleted with it, so the key and the count are all that is kept; the
    notification leads to the lobby, to find or create another."""
    return notification_create(user_id=user_id, kind=Kind.TABLE_CLOSED,
                               key=f"{Kind.TABLE_CLOSED}:{table.token}:{days}", now=now)


# --- reading, choosing, pruning --------------------------------------------------------------


def notifications_mark_read(
    *, user_id: int, notification_id: int | None = None, now: datetime | None = None
) -> int:
    """Mark one notification (or, with no id, all) of the player read; every open page of
    theirs is told. Returns how many were unread."""
    now = now or timezone.now()
    rows = Notification.objects.filter(user_id=user_id, read_at__isnull=True)
    if notification_id is not None:
        rows = rows.filter(pk=notification_id)
    marked = rows.update(read_at=now)
    if marked:
        transaction.on_commit(lambda: _tell_pages(user_id, {"type": "notify.refresh"}))
    return marked


def notifications_mark_read_of_match(
    *, user_id: int, match_id: int, now: datetime | None = None
) -> int:
    """The player has the game's page in view: the turns of it they were told of are read
    (every open page of theirs is told). Returns how many were unread."""
    now = now or timezone.now()
    marked = Notification.objects.filter(
        user_id=user_id, match_id=match_id, kind__in=TURN_KINDS, read_at__isnull=True,
    ).update(read_at=now)
    if marked:
        transaction.on_commit(lambda: _tell_pages(user_id, {"type": "notify.refresh"}))
    return marked


def notification_challenge_answered(*, challenge: Challenge) -> int:
    """The challenge was accepted, declined or withdrawn: its notification is read, and the
    challenged player's pages take its alert down."""
    if challenge.challenged_id is None:
        return 0
    marked = Notification.objects.filter(
        user_id=challenge.challenged_id, challenge=challenge, read_at__isnull=True
    ).update(read_at=timezone.now())
    user_id = challenge.challenged_id
    transaction.on_commit(lambda: _tell_pages(user_id, {"type": "notify.refresh"}))
    return marked


def notifications_prune(*, now: datetime | None = None) -> int:
    """Remove the notifications older than `NOTIFICATIONS_KEEP_DAYS`. Returns how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.NOTIFICATIONS_KEEP_DAYS)
    return Notification.objects.filter(created_at__lt=cutoff).delete()[0]


def preferences_set(*, user_id: int, channels: dict[str, set[str]]) -> None:
    """The player's channels for each kind named in `channels`."""
    with transaction.atomic():
        for kind, chosen in channels.items():
            if kind not in Kind.values:
                continue
            Preference.objects.update_or_create(
                user_id=user_id, kind=kind,
                defaults={"email": "email" in chosen, "push": "push" in chosen},
            )


def email_unsubscribe(*, user_id: int, kinds: list[str]) -> None:
    """No more e-mail of these kinds for the player (their other channels stay)."""
    current = preferences_of(user_id=user_id)
    preferences_set(user_id=user_id, channels={
        kind: current[kind] - {"email"} for kind in kinds if kind in current
    })


def email_resubscribe(*, user_id: int, kind: str) -> None:
    current = preferences_of(user_id=user_id)
    if kind in current:
        preferences_set(user_id=user_id, channels={kind: current[kind] | {"email"}})


def push_subscription_save(
    *, user_id: int, endpoint: str, p256dh: str, auth: str, now: datetime | None = None
) -> PushSubscription:
    """Keep this browser's subscription (a browser that subscribes again replaces its keys and
    its count of failures; an endpoint belongs to the player who subscribed last). A player
    keeps `WEBPUSH_SUBSCRIPTIONS_PER_USER` browsers: a new one replaces their oldest. The
    caller has checked the endpoint (`notifications.endpoints.endpoint_check`)."""
    with transaction.atomic():
        # Two tabs subscribing at once: one after the other, so the cap holds.
        User.objects.select_for_update().filter(pk=user_id).first()
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user_id": user_id, "p256dh": p256dh, "auth": auth, "failures": 0,
                      "created_at": now or timezone.now()},
        )
        kept = PushSubscription.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
        cap = settings.WEBPUSH_SUBSCRIPTIONS_PER_USER
        overflow = list(kept.values_list("pk", flat=True)[cap:])
        if overflow:
            PushSubscription.objects.filter(pk__in=overflow).delete()
    return subscription


def push_subscription_delete(*, user_id: int, endpoint: str) -> bool:
    return PushSubscription.objects.filter(user_id=user_id, endpoint=endpoint).delete()[0] > 0
