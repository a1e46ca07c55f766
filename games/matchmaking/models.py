"""The state of matchmaking, kept in the database so that every daphne process and worker
sees the same pools, seeks and challenges (never in a process's memory).

* `Pool`: one row per quick-pairing time control; its row lock serializes the waves.
* `PoolEntry`: a player waiting in a pool (one pool at a time: the user is unique).
* `Seek`: an open challenge in the lobby; deleted when accepted or when its creator leaves.
* `Challenge`: an invitation to one user, or an open link anyone logged in may accept.
* `Table`, `TableSeat`: a table for 3-4 and its taken seats (`games.matchmaking.tables`).

Entries and seeks belong to the lobby socket that made them (`channel_name`) and stay alive
only while it keeps renewing `alive_until`, so a crashed process leaves nothing behind.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Pool(models.Model):
    key = models.CharField(_("time control"), max_length=10, primary_key=True)
    last_wave_at = models.DateTimeField(_("last wave"), null=True, blank=True)

    class Meta:
        verbose_name = _("pool")
        verbose_name_plural = _("pools")

    def __str__(self) -> str:
        return self.key


class PoolEntry(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="pool_entry",
    )
    pool = models.ForeignKey(Pool, verbose_name=_("pool"), on_delete=models.CASCADE,
                             related_name="entries")
    rating = models.FloatField(_("rating"))
    joined_at = models.DateTimeField(_("joined"))
    alive_until = models.DateTimeField(_("alive until"))
    channel_name = models.CharField(_("socket"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("pool entry")
        verbose_name_plural = _("pool entries")
        indexes = [models.Index(fields=["pool", "alive_until"], name="mm_entry_pool_alive")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.pool_id}"


class Seek(models.Model):
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("creator"), on_delete=models.CASCADE,
        related_name="seeks",
    )
    clock_initial = models.PositiveIntegerField(_("initial time (s)"))
    clock_increment = models.PositiveIntegerField(_("increment (s)"))
    # Days per move (`clock_initial`) rather than a live clock.
    correspondence = models.BooleanField(_("correspondence"), default=False)
    rated = models.BooleanField(_("rated"), default=True)
    created_at = models.DateTimeField(_("created"))
    alive_until = models.DateTimeField(_("alive until"))
    channel_name = models.CharField(_("socket"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        indexes = [models.Index(fields=["alive_until"], name="mm_seek_alive")]

    def __str__(self) -> str:
        return f"seek {self.pk} by {self.creator_id}"


class ChallengeStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")


class Challenge(models.Model):
    token = models.CharField(_("link token"), max_length=32, unique=True)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("challenger"), on_delete=models.CASCADE,
        related_name="challenges_sent",
    )
    # None: an open link that anyone logged in (but the challenger) may accept.
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("challenged"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="challenges_received",
    )
    # None: an untimed correspondence game (the only untimed game a challenge offers).
    clock_initial = models.PositiveIntegerField(_("initial time (s)"), null=True, blank=True)
    clock_increment = models.PositiveIntegerField(_("increment (s)"))
    correspondence = models.BooleanField(_("correspondence"), default=False)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=ChallengeStatus.choices,
                              default=ChallengeStatus.PENDING)
    created_at = models.DateTimeField(_("created"))
    expires_at = models.DateTimeField(_("expires"))
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [
            models.Index(fields=["challenged", "status"], name="mm_challenge_to_status"),
        ]

    def __str__(self) -> str:
        return f"challenge {self.token}"


class Table(models.Model):
    """A table for 3 or 4 that people sit down at from the lobby (or its link, if private).

    Open while `match` is empty. Starting it makes the match, sets `match` and removes its
    seats (its people's seats at other tables stay); the row stays, so that its link, and a
    start asked for twice, lead to that match. Closing it (its creator leaves, or a
    correspondence table nobody filled in `MATCHMAKING_CORRESPONDENCE_TABLE_DAYS`) deletes it.
    """

    token = models.CharField(_("link token"), max_length=32, unique=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("creator"), on_delete=models.CASCADE,
        related_name="tables_created",
    )
    n_players = models.PositiveSmallIntegerField(_("players"))
    # No initial time: untimed.
    clock_initial = models.PositiveIntegerField(_("initial time (s)"), null=True, blank=True)
    clock_increment = models.PositiveIntegerField(_("increment (s)"), default=0)
    # Days per move (`clock_initial`; none: no clock) rather than a live clock.
    correspondence = models.BooleanField(_("correspondence"), default=False)
    rated = models.BooleanField(_("rated"), default=False)
    public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created"))
    match = models.OneToOneField(
        "games.Match", verbose_name=_("match"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="table",
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(condition=models.Q(n_players__in=[3, 4]),
                                   name="mm_table_players"),
        ]
        indexes = [models.Index(fields=["public", "match"], name="mm_table_open")]

    def __str__(self) -> str:
        return f"table {self.token}"


class TableSeat(models.Model):
    """A taken seat of an open table: a person (at a live table kept while their lobby socket
    renews `alive_until`; at a correspondence table until they leave) or the AI at a level.
    An empty seat has no row."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    # A person sits at one open live table at a time (seats go when a table starts), which
    # the database says: unique where `correspondence`, the table's own kept here, is false.
    # At correspondence tables, up to `MATCHMAKING_OPEN_CORRESPONDENCE_TABLES` at once, which
    # `games.matchmaking.tables` counts under the person's user row lock.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="table_seats",
    )
    correspondence = models.BooleanField(_("correspondence table"), default=False)
    ai_level = models.PositiveSmallIntegerField(_("AI level"), null=True, blank=True)
    joined_at = models.DateTimeField(_("joined"))
    alive_until = models.DateTimeField(_("alive until"), null=True, blank=True)

    class Meta:
        verbose_name = _("table seat")
        verbose_name_plural = _("table seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="mm_table_seat_once"),
            models.UniqueConstraint(fields=["table", "user"],
                                    name="mm_table_seat_person_here_once"),
            models.UniqueConstraint(fields=["user"], condition=models.Q(correspondence=False),
                                    name="mm_table_seat_one_live"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=True, ai_level__isnull=False)
                | models.Q(user__isnull=False, ai_level__isnull=True),
                name="mm_table_seat_kind",
            ),
        ]
        indexes = [models.Index(fields=["alive_until"], name="mm_table_seat_alive")]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.table_id}"
