"""The user of the site: the custom model exists from the first migration on purpose.

Usernames are unique ignoring case (so `Anna` and `anna` cannot both exist), and so are
non-empty e-mail addresses, because both are used to log in.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, UserManager
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from accounts import ratings
from accounts.validators import username_validators


class CaseInsensitiveUserManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        return self.get(username__iexact=username)


class User(AbstractUser):
    username = models.CharField(
        _("username"),
        max_length=20,
        unique=True,
        validators=username_validators,
        help_text=_("3 to 20 characters: letters, digits, _ and -."),
        error_messages={"unique": _("A user with that username already exists.")},
    )
    email = models.EmailField(_("email address"), blank=True)
    language = models.CharField(_("language"), max_length=10, blank=True)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # The volume of the site's sounds, 0 (muted) to 100, on every device the player logs in
    # with; None until they choose one (each browser then keeps its own).
    sound_volume = models.PositiveSmallIntegerField(
        _("sound volume"), null=True, blank=True,
        validators=[MaxValueValidator(100)],
    )
    # The profile's own words and flag (`accounts.social`); the bio is held to chat's rules.
    bio = models.CharField(_("bio"), max_length=300, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    # Free text in rated games with players one does not follow (off: phrases and emoji only).
    chat_with_strangers = models.BooleanField(_("chat in rated games with strangers"),
                                              default=False)
    # A chat mute set by the staff: until an instant, or for good.
    chat_muted_until = models.DateTimeField(_("chat muted until"), null=True, blank=True)
    chat_muted_for_good = models.BooleanField(_("chat muted for good"), default=False)

    objects = CaseInsensitiveUserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message=_("A user with that username already exists."),
            ),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
                violation_error_message=_("A user with that email address already exists."),
            ),
        ]

    def __str__(self) -> str:
        return self.username


class RatingMode(models.TextChoices):
    """The kinds of play rated apart, one rating each (as lichess keeps one per speed): a
    player's strength at live duels says little of their correspondence play. Every mode is
    Glicko-2 but `TABLE`, the 3-4 player tables' Weng-Lin rating (`accounts.table_ratings`),
    whose row keeps the shown mean in `rating` and sigma in points in `deviation`."""

    DUEL = "duel", _("Duel")
    TABLE = "table", _("Tables")
    CORRESPONDENCE = "correspondence", _("Correspondence")
    PUZZLE = "puzzle", _("Puzzles")


class PlayerRating(models.Model):
    """A player's Glicko-2 rating in one mode (see `accounts.ratings` for the policy).

    `deviation` is the deviation as of `last_rated_at`; it grows with inactivity after that,
    which `accounts.ratings.current_deviation` computes when the rating is shown or used.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    mode = models.CharField(_("mode"), max_length=16, choices=RatingMode.choices,
                            default=RatingMode.DUEL)
    rating = models.FloatField(_("rating"), default=ratings.START_RATING)
    deviation = models.FloatField(_("rating deviation"), default=ratings.START_DEVIATION)
    volatility = models.FloatField(_("rating volatility"), default=ratings.START_VOLATILITY)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    last_rated_at = models.DateTimeField(_("last rated"), null=True, blank=True)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "mode"], name="accounts_rating_user_mode"),
        ]
        indexes = [
            # The leaderboard of a mode: its established players, best first.
            models.Index(fields=["mode", "-rating"], name="accounts_rating_mode_rating"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode}: {self.rating:.0f} ± {self.deviation:.0f}"


class Follow(models.Model):
    """`follower` follows `followed`; two follows either way make them friends."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="accounts_follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")),
                                   name="accounts_follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} -> {self.followed_id}"


class Block(models.Model):
    """`blocker` blocked `blocked`: no challenge, message or pairing between them, and the
    blocker does not see the blocked player's chat."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")),
                                   name="accounts_block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} x {self.blocked_id}"
