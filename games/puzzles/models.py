"""Puzzles and the attempts at them.

A puzzle is a duel position (TPN, the standard variant) where the player to move has one
winning answer, proved exactly (``games.ai.puzzles``), with its line: the player's moves,
each with every move accepted, and the defender's replies. One cut from a site game keeps
the match and the ply it came from. Themes are stored twice: as their keys for display and
as bits (``theme_bits``, in the order of ``games.ai.puzzles.THEMES``) so that several
themes at once filter with one bit test, on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts import ratings
from games.ai.puzzles import THEMES
from games.play.models import Match

THEME_LABELS = {
    "take_to_win": _("Take to win"),
    "trump_ace": _("Trump ace"),
    "last_card": _("Last card"),
    "draw_rule": _("Draw rule"),
    "long_line": _("Long line"),
    "sacrifice": _("Sacrifice"),
    "one_move": _("One move"),
    "short_line": _("Short line"),
}
assert tuple(THEME_LABELS) == THEMES


def theme_labels(themes: list[str] | tuple[str, ...]) -> list[str]:
    """The names of theme keys, in the order of ``THEMES``, in the active language."""
    return [str(label) for theme, label in THEME_LABELS.items() if theme in themes]


def theme_bits(themes: list[str] | tuple[str, ...]) -> int:
    """The bit mask of theme keys (an unknown key raises ValueError)."""
    return sum(1 << THEMES.index(theme) for theme in set(themes))


class Source(models.TextChoices):
    GAME = "game", _("Site game")
    SELF_PLAY = "self_play", _("AI self-play")


class Puzzle(models.Model):
    tpn = models.CharField(_("position"), max_length=200, unique=True)
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    match = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="puzzles", verbose_name=_("match"))
    ply = models.PositiveIntegerField(_("ply"), null=True, blank=True)
    solution = models.JSONField(_("solution"))
    """The steps in order: ``{"move": "QH-7D", "accepted": [...], "player": true}``."""
    themes = models.JSONField(_("themes"), default=list)
    theme_bits = models.PositiveIntegerField(_("theme bits"), default=0)
    rating = models.FloatField(_("rating"), default=ratings.START_RATING)
    deviation = models.FloatField(_("rating deviation"), default=ratings.START_DEVIATION)
    volatility = models.FloatField(_("rating volatility"), default=ratings.START_VOLATILITY)
    plays = models.PositiveIntegerField(_("plays"), default=0)
    retired = models.BooleanField(_("retired"), default=False)
    """Re-proved wrong (``puzzles verify``): never offered again; attempts and the page
    stay."""
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        # The next-puzzle walk reads this index alone (rating order, the id to compare with
        # the player's attempts, the theme bits and the retired flag to filter), never the
        # rows it passes over.
        indexes = [models.Index(fields=["rating", "id"], include=["theme_bits", "retired"],
                                name="puzzle_rating_walk")]

    def __str__(self) -> str:
        return f"puzzle {self.pk}: {self.tpn}"

    @property
    def moves(self) -> list[str]:
        return [str(step["move"]) for step in self.solution]

    def export_line(self) -> str:
        """``TPN | moves, the player's first | themes | rating`` (``puzzles export``)."""
        return (f"{self.tpn} | {' '.join(self.moves)} | {','.join(self.themes)} | "
                f"{round(self.rating)}")


class PuzzleAttempt(models.Model):
    """One play of a puzzle: by an account (rated, once per puzzle) or a guest (unrated,
    kept for the streak of its session only)."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts",
                               verbose_name=_("puzzle"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                             blank=True, related_name="puzzle_attempts",
                             verbose_name=_("user"))
    solved = models.BooleanField(_("solved"))
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)
    played_at = models.DateTimeField(_("played"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [models.UniqueConstraint(fields=["user", "puzzle"],
                                               name="puzzle_attempt_once")]
        indexes = [models.Index(fields=["user", "played_at"], name="puzzle_attempt_user")]

    def __str__(self) -> str:
        return f"attempt {self.pk} at puzzle {self.puzzle_id}"


class PuzzleScan(models.Model):
    """A finished match the generator has cut its puzzles from (even none): it is not
    examined again."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="puzzle_scan",
                                 verbose_name=_("match"))
    found = models.PositiveIntegerField(_("puzzles found"), default=0)
    scanned_at = models.DateTimeField(_("scanned"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle scan")
        verbose_name_plural = _("puzzle scans")

    def __str__(self) -> str:
        return f"scan of match {self.match_id}"


class PuzzleStreak(models.Model):
    """An account's puzzle streak: puzzles in a row of rising difficulty until the first
    miss. ``puzzle`` is the one being played (chosen once, so reloading the page keeps it);
    a guest's streak lives in their session instead (``games.puzzles.guests``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="puzzle_streak", verbose_name=_("user"))
    current = models.PositiveIntegerField(_("current streak"), default=0)
    best = models.PositiveIntegerField(_("best streak"), default=0)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+", verbose_name=_("puzzle in play"))
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("puzzle streak")
        verbose_name_plural = _("puzzle streaks")

    def __str__(self) -> str:
        return f"streak of {self.user_id}: {self.current} (best {self.best})"


class DailyPuzzle(models.Model):
    """The puzzle of one calendar day, chosen by the first request of that day and kept:
    the same for everyone, and never chosen again while another is left."""

    day = models.DateField(_("day"), unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="daily",
                               verbose_name=_("puzzle"))

    class Meta:
        verbose_name = _("daily puzzle")
        verbose_name_plural = _("daily puzzles")

    def __str__(self) -> str:
        return f"puzzle of {self.day}: {self.puzzle_id}"
