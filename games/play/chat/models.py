"""The chat of a game: one room for its players, one for its spectators, kept with the game
(its players see their room again in the replay), and the reports of messages and players
that the staff review in the admin."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.play.models import Match

MAX_TEXT = 140  # as lichess's game chat: a line, not a letter


class Room(models.TextChoices):
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class Kind(models.TextChoices):
    PHRASE = "phrase", _("Quick phrase")
    EMOJI = "emoji", _("Reaction")
    TEXT = "text", _("Text")


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(_("room"), max_length=10, choices=Room.choices)
    # A deleted account's lines go with it; a guest speaks by the id kept in their session.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"),
                               null=True, blank=True, on_delete=models.CASCADE,
                               related_name="chat_messages")
    guest_id = models.CharField(_("guest"), max_length=32, blank=True)
    author_name = models.CharField(_("author name"), max_length=32)
    kind = models.CharField(_("kind"), max_length=6, choices=Kind.choices)
    # The phrase's id, the reaction, or the text as written.
    body = models.CharField(_("message"), max_length=MAX_TEXT)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["match", "room", "id"], name="games_chat_room")]

    def __str__(self) -> str:
        return f"{self.author_name}: {self.body}"


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DISMISSED = "dismissed", _("Dismissed")
    ACTED = "acted", _("Acted on")


class ChatReport(models.Model):
    """A player reported a message (and so its author), or a player without a message."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reporter"),
                                 on_delete=models.CASCADE, related_name="chat_reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reported player"),
                                 on_delete=models.CASCADE, related_name="chat_reports")
    message = models.ForeignKey(ChatMessage, verbose_name=_("message"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="reports")
    match = models.ForeignKey(Match, verbose_name=_("game"), null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="chat_reports")
    # The lines around the message as they were, kept even if the game goes.
    context = models.TextField(_("context"), blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=ReportStatus.choices,
                              default=ReportStatus.OPEN)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            # A message is reported once by each reader, however often the button is pressed.
            models.UniqueConstraint(fields=["reporter", "message"],
                                    condition=models.Q(message__isnull=False),
                                    name="games_chat_report_once"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="games_chat_report_queue")]

    def __str__(self) -> str:
        return f"{self.reporter_id} reported {self.reported_id}"
