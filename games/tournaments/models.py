"""Tournaments, arenas and Swiss, kept in the database like the rest of matchmaking
(`docs/tournaments.md`).

* `Tournament`: one arena or Swiss: its time control, start, end (or rounds) and status; its
  row lock serializes its pairing waves (an arena's) or rounds (a Swiss's), its start and end.
* `Participant`: a player who joined: score, sheet, streak, whether they are paused or
  withdrawn, and when they became free. A row is never deleted once its player has played a
  game of the tournament, so leaving and joining again changes nothing in the standings.
* `TournamentGame`: one game of the tournament (a match of the site; in a Swiss, of a round)
  and what it scored for each side.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.play.time_control import TimeControl


class TournamentStatus(models.TextChoices):
    CREATED = "created", _("Starting soon")
    STARTED = "started", _("In progress")
    FINISHED = "finished", _("Finished")


class TournamentKind(models.TextChoices):
    ARENA = "arena", _("Arena")
    SWISS = "swiss", _("Swiss")


class Tournament(models.Model):
    kind = models.CharField(_("kind"), max_length=5, choices=TournamentKind.choices,
                            default=TournamentKind.ARENA)
    token = models.CharField(_("link token"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=60)
    # None: made by the schedule (the hourly arenas).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("creator"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="tournaments_created",
    )
    public = models.BooleanField(_("public"), default=True)
    rated = models.BooleanField(_("rated"), default=True)
    clock_initial = models.PositiveIntegerField(_("initial time (s)"))
    clock_increment = models.PositiveIntegerField(_("increment (s)"), default=0)
    starts_at = models.DateTimeField(_("starts"))
    # An arena ends at this instant; a Swiss when its last round's last game ends (this is
    # then only its latest end as planned, shown nowhere).
    ends_at = models.DateTimeField(_("ends"))
    # A Swiss: its number of rounds, and the round being played (0 before the first).
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=TournamentStatus.choices,
                              default=TournamentStatus.CREATED)
    # The schedule's own name for an arena it made ("hourly 3+2 2026-12-03T08"): the same
    # arena is never made twice, however many times the schedule runs.
    schedule_key = models.CharField(_("schedule key"), max_length=60, null=True, blank=True,
                                    unique=True)
    last_wave_at = models.DateTimeField(_("last pairing wave"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"))

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tour_status_start"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.clock_initial, self.clock_increment)

    @property
    def correspondence(self) -> bool:
        return False

    @property
    def is_swiss(self) -> bool:
        return self.kind == TournamentKind.SWISS

    @property
    def minutes(self) -> int:
        return round((self.ends_at - self.starts_at).total_seconds() / 60)


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="participants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="tournament_entries")
    rating = models.FloatField(_("rating"))
    score = models.IntegerField(_("score"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    # Each scored game, oldest first: in an arena [points, doubled (on fire), berserk]
    # (`scoring`); in a Swiss [round, opponent's user id or 0 for a bye, half points] (`swiss`).
    sheet = models.JSONField(_("score sheet"), default=list)
    # Wins in a row up to now: two or more and the player is on fire.
    streak = models.PositiveSmallIntegerField(_("wins in a row"), default=0)
    paused = models.BooleanField(_("paused"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    # Since when the player waits for a game; None while they play one.
    free_since = models.DateTimeField(_("free since"), null=True, blank=True)
    # Their tournament page (or game page) is open: renewed by its socket.
    present_until = models.DateTimeField(_("present until"), null=True, blank=True)
    # The opponent of their last game (a user id; 0 for the AI): not met again at once while
    # another opponent is free.
    last_opponent = models.IntegerField(_("last opponent"), null=True, blank=True)
    # They agreed to play the AI after waiting (never by default).
    ai_opt_in = models.BooleanField(_("plays the AI after waiting"), default=False)
    joined_at = models.DateTimeField(_("joined"))

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tour_participant_once"),
        ]
        indexes = [
            models.Index(fields=["tournament", "-score", "-rating"], name="tour_standing"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2

    @property
    def active(self) -> bool:
        return not (self.paused or self.withdrawn)


class TournamentGame(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField("games.Match", verbose_name=_("match"),
                                 on_delete=models.CASCADE, related_name="tournament_game")
    # The players by seat: seat 0's and seat 1's user; None where the AI sits.
    user_a = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("first player"),
                               null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    user_b = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("second player"),
                               null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    # The round of a Swiss it belongs to (None in an arena).
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    points_a = models.SmallIntegerField(_("first player's points"), null=True, blank=True)
    points_b = models.SmallIntegerField(_("second player's points"), null=True, blank=True)
    scored = models.BooleanField(_("scored"), default=False)
    created_at = models.DateTimeField(_("created"))

    class Meta:
        verbose_name = _("tournament game")
        verbose_name_plural = _("tournament games")
        indexes = [
            models.Index(fields=["scored"], name="tour_game_unscored",
                         condition=models.Q(scored=False)),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} in {self.tournament_id}"

    def user_ids(self) -> list[int]:
        return [uid for uid in (self.user_a_id, self.user_b_id) if uid is not None]
