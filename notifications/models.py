"""What a player is told, and how they want to be told it.

* `Notification`: one thing told to one user (a challenge, a rematch offer, their turn...),
  stored so that the header's list survives the page, marked read, pruned after
  `NOTIFICATIONS_KEEP_DAYS`. `key` names the moment it tells of (`challenge:12`,
  `turn:40:7`): one notification per user and key, so a retried task or a service called
  twice for one moment tells it once.
* `Preference`: a player's choice of channels for one kind; a kind with no row has the
  defaults of `kinds.DEFAULT_CHANNELS`.
* `PushSubscription`: one browser of a player that accepts Web Push messages (at most
  `WEBPUSH_SUBSCRIPTIONS_PER_USER` a player).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    CHALLENGE = "challenge", _("Challenges")
    REMATCH = "rematch", _("Rematch offers")
    DRAW_DECLINED = "draw_declined", _("Draw offers declined")
    TURN = "turn", _("Your turn in a correspondence game")
    REMINDER = "reminder", _("Little time left in a correspondence game")
    FINISHED = "finished", _("Games that ended while you were away")
    TABLE_CLOSED = "table_closed", _("Correspondence tables closed unfilled")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Browser notifications")


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="notifications",
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("key"), max_length=80)
    # Who made the moment (the challenger, the player who declined): None for the clock's
    # moments, or once that account is gone.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("from"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="+",
    )
    challenge = models.ForeignKey(
        "games.Challenge", verbose_name=_("challenge"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="+",
    )
    created_at = models.DateTimeField(_("created"))
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    emailed_at = models.DateTimeField(_("e-mailed"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notify_one_per_moment"),
        ]
        indexes = [
            models.Index(fields=["user", "-created_at", "-id"], name="notify_user_newest_first"),
            # The header's badge counts a player's unread ones.
            models.Index(fields=["user"], condition=models.Q(read_at__isnull=True),
                         name="notify_user_unread"),
            models.Index(fields=["created_at"], name="notify_created"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class Preference(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="notification_preferences",
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    email = models.BooleanField(_("e-mail"))
    push = models.BooleanField(_("browser notifications"))

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notify_one_preference"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user_id}"


class PushSubscription(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    # The push service's URL for this browser (RFC 8030), and the keys of RFC 8291.
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=120)
    auth = models.CharField(_("authentication secret"), max_length=40)
    created_at = models.DateTimeField(_("created"))
    # Sends that failed in a row (refused, unreachable, silent, an error of the service): the
    # subscription is removed at `WEBPUSH_MAX_FAILURES`; a success counts from nought again.
    failures = models.PositiveSmallIntegerField(_("failures in a row"), default=0)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push of {self.user_id}"
