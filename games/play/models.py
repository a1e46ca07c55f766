"""Matches, their seats and their moves: the database is the truth of every game.

A match stores its variant, seed, dealer and the trumps chosen; the starting position
(`deal_tpn`) follows from them, and the current position from the deal and the moves.
`position_tpn` beside them is only a cache. Every change goes through `games.play.services`.

For the profile pages (accounts): a user's games are `Seat.objects.filter(user=...)`, the
result of each is on the seat (`result`, `place`), and `rating_before`/`rating_after` on
the seats of rated duels are the rating history.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import RatingMode
from accounts.ratings import shown_change
from games.play.time_control import TimeControl


class Variant(models.TextChoices):
    STANDARD = "standard", _("Standard")
    STRICT = "strict", _("Strict (who can beat must beat)")


class Status(models.TextChoices):
    TRUMPS = "trumps", _("Choosing trumps")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Result(models.TextChoices):
    NONE = "", _("Not decided")
    DECIDED = "decided", _("Decided")
    DRAW = "draw", _("Draw")
    ABORTED = "aborted", _("Aborted")


class TerminationReason(models.TextChoices):
    """How a match ended: the reasons of `games.rules.Termination` and the site's own."""

    NONE = "", _("Not over")
    NORMAL = "normal", _("Cards played out")
    DRAW_RULE = "draw rule", _("Draw rule (the last card beats the top)")
    REPETITION = "repetition", _("Threefold repetition")
    MOVE_LIMIT = "move limit", _("Move limit")
    RESIGNATION = "resignation", _("Resignation")
    TIMEOUT = "timeout", _("Time out")
    ABANDONMENT = "abandonment", _("Opponent left the game")
    AGREEMENT = "agreement", _("Draw by agreement")
    ABORTED = "aborted", _("Aborted")


class SeatResult(models.TextChoices):
    NONE = "", _("Not decided")
    WIN = "win", _("Win")
    LOSS = "loss", _("Loss")
    DRAW = "draw", _("Draw")


class Match(models.Model):
    variant = models.CharField(
        _("variant"), max_length=10, choices=Variant.choices, default=Variant.STANDARD
    )
    rated = models.BooleanField(_("rated"), default=False)
    # The time control: `clock_initial` seconds each plus `clock_increment` per move;
    # no initial time means an untimed (casual) game.
    clock_initial = models.PositiveIntegerField(_("initial time (s)"), null=True, blank=True)
    clock_increment = models.PositiveIntegerField(_("increment (s)"), default=0)
    # A correspondence game: `clock_initial` is the time per move (None: no clock at all),
    # the mover's clock starts full at each turn, and presence ends nothing.
    correspondence = models.BooleanField(_("correspondence"), default=False)
    public = models.BooleanField(_("open to spectators"), default=True)
    n_players = models.PositiveSmallIntegerField(_("players"), default=2)

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.TRUMPS
    )
    seed = models.BigIntegerField(_("seed"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    # The suits chosen so far, in the order of choosing (the first by seat dealer + 1).
    trumps_chosen = models.CharField(_("trumps chosen"), max_length=4, blank=True)
    deal_tpn = models.CharField(_("deal (TPN)"), max_length=200, blank=True)
    # Started from a given position (a lesson, a test) rather than dealt from the seed.
    from_position = models.BooleanField(_("started from a position"), default=False)
    position_tpn = models.CharField(_("current position (TPN, cache)"), max_length=200,
                                    blank=True)
    # Beside the position, what a TPN cannot carry (`State.known_text`): the cards everyone
    # knows each seat holds (taken from the pile in view of all, the trump sixes).
    position_known = models.CharField(_("cards known to all (cache)"), max_length=120,
                                      blank=True)
    # The cards the last move took from the pile, if it was a take (the board shows them).
    last_taken = models.CharField(_("cards the last move took"), max_length=72, blank=True)

    ply = models.PositiveIntegerField(_("moves played"), default=0)
    # Bumped by every change a client must see (moves, trump choices, offers, presence).
    version = models.PositiveIntegerField(_("version"), default=0)
    # The seat to act: the chooser while choosing trumps, then the mover; None when over.
    to_move = models.PositiveSmallIntegerField(_("seat to act"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    # The next instant the clock acts if nobody does (the mover's flag, a trump choice's
    # timeout, a late AI's task sent again): what the deadline watch looks for.
    due_at = models.DateTimeField(_("next deadline"), null=True, blank=True)
    # The start of the turn whose "a quarter of the time left" reminder has been sent.
    reminded_turn_at = models.DateTimeField(_("reminded for the turn of"), null=True,
                                            blank=True)
    draw_offer_seat = models.PositiveSmallIntegerField(_("draw offered by"), null=True,
                                                       blank=True)
    # At a table of 3-4 a draw needs every seat still holding cards: the seats (digits, in
    # seat order) that have accepted the standing offer besides its offerer.
    draw_accepted = models.CharField(_("draw accepted by"), max_length=4, blank=True)
    rematch_offer_seat = models.PositiveSmallIntegerField(_("rematch offered by"), null=True,
                                                          blank=True)
    # A rematch seats everyone who played, so every person must agree: the seats (digits, in
    # seat order) that have accepted the standing offer besides its offerer.
    rematch_accepted = models.CharField(_("rematch accepted by"), max_length=4, blank=True)
    previous = models.OneToOneField(
        "self", verbose_name=_("previous game of the series"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="rematch",
    )

    result = models.CharField(_("result"), max_length=10, choices=Result.choices, blank=True)
    loser_seat = models.PositiveSmallIntegerField(_("loser"), null=True, blank=True)
    termination = models.CharField(
        _("termination"), max_length=12, choices=TerminationReason.choices, blank=True
    )

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            # Live games (spectating, the home page) and recent games lists.
            models.Index(fields=["status", "-created_at"], name="games_match_status_created"),
            models.Index(fields=["-finished_at"], name="games_match_finished"),
            models.Index(fields=["due_at"], name="games_match_due",
                         condition=models.Q(due_at__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"match {self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.ABORTED)

    @property
    def timed(self) -> bool:
        return self.clock_initial is not None

    @property
    def time_control(self) -> TimeControl:
        return TimeControl.of(self)

    @property
    def rating_mode(self) -> str:
        """The rating a rated match changes (`accounts.models.RatingMode`): a table of 3-4
        has a rating of its own, and so has a correspondence duel."""
        if self.n_players != 2:
            return RatingMode.TABLE
        return RatingMode.CORRESPONDENCE if self.correspondence else RatingMode.DUEL


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    # A deleted account's games stay (its opponents keep their record): "deleted user".
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="seats",
    )
    # A visitor playing without an account: the guest id kept in their session.
    guest_id = models.CharField(_("guest"), max_length=32, blank=True)
    ai_level = models.PositiveSmallIntegerField(_("AI level"), null=True, blank=True)
    trump = models.CharField(_("trump suit"), max_length=1, blank=True)

    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    result = models.CharField(_("result"), max_length=4, choices=SeatResult.choices,
                              blank=True)
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)
    deviation_before = models.FloatField(_("rating deviation before"), null=True, blank=True)
    deviation_after = models.FloatField(_("rating deviation after"), null=True, blank=True)

    # Remaining time in milliseconds at the start of the current turn (None: untimed).
    clock_ms = models.BigIntegerField(_("clock (ms)"), null=True, blank=True)
    # Presence: open game sockets of this seat's player, and when the last one closed.
    connections = models.PositiveSmallIntegerField(_("open connections"), default=0)
    disconnected_at = models.DateTimeField(_("disconnected at"), null=True, blank=True)
    # Open sockets renew this lease; a server that died without closing them lets it lapse,
    # so a count left behind by a crash does not keep a player "here" for ever.
    present_until = models.DateTimeField(_("present until"), null=True, blank=True)
    # At a table of 3-4: the ply from which the AI plays this person's seat, because they
    # left or stopped moving (`games.play.services.takeover`); None while they play it.
    taken_over_ply = models.PositiveIntegerField(_("taken over by the AI at ply"), null=True,
                                                 blank=True)
    # The open game sockets of this seat whose page is in view and focused: while one is (and
    # the presence lease runs) the player sees their turns come, and is not notified of them.
    focused = models.PositiveSmallIntegerField(_("focused pages"), default=0)
    # The player gave up half their time and the increment before their first move (an
    # arena's berserk, `games.play.services.berserk`): their moves add no increment.
    berserk = models.BooleanField(_("berserk"), default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="games_seat_unique_index"),
        ]
        indexes = [
            # A user's games, newest first (profile: results, streaks, rating history).
            models.Index(fields=["user", "-match"], name="games_seat_user_match"),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.index}"

    @property
    def is_ai(self) -> bool:
        """Whether the AI plays the seat now: an AI seat, or a person's seat taken over."""
        return self.ai_level is not None

    @property
    def taken_over(self) -> bool:
        return self.taken_over_ply is not None

    @property
    def rating_delta(self) -> int | None:
        """How the game changed this seat's rating, as shown (rounded ratings' difference);
        None for a seat that was not rated."""
        if self.rating_after is None or self.rating_before is None:
            return None
        return shown_change(self.rating_before, self.rating_after)

    @property
    def display_name(self) -> str:
        # A seat taken over keeps its person's name: they are the one who played (and lost).
        return player_name(
            ai_level=None if self.taken_over else self.ai_level,
            username=self.user.username if self.user_id is not None else None,
            guest=bool(self.guest_id),
        )


def player_name(*, ai_level: int | None, username: str | None, guest: bool) -> str:
    """How a seat's player is named, in the active language."""
    if ai_level is not None:
        return str(_("AI level %(level)d") % {"level": ai_level})
    if username is not None:
        return username
    return str(_("Guest")) if guest else str(_("deleted user"))


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(_("ply"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    text = models.CharField(_("move"), max_length=8)
    time_spent_ms = models.PositiveBigIntegerField(_("time spent (ms)"), default=0)
    # Every seat's remaining time after the move (increment included); None when untimed.
    clocks_after = models.JSONField(_("clocks after (ms)"), null=True, blank=True)
    played_at = models.DateTimeField(_("played at"))

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="games_move_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.match} {self.ply}. {self.text}"


class Vacation(models.Model):
    """A period in which a player's correspondence clocks stand still: the time of the period
    still ahead is added to each turn of theirs that it overlaps (`games.play.services.
    correspondence`). Ending it early (`ended_at`) gives the unused days back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "-ends_at"], name="games_vacation_user_end")]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.starts_at:%Y-%m-%d}"
