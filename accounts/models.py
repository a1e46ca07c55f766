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
    # A bot account plays only through the Bot API (`games.api`) and is marked BOT wherever
    # its name is shown; an account becomes one only before its first game.
    is_bot = models.BooleanField(_("bot account"), default=False)
    # Whether bots may challenge this player (people may turn it off).
    bot_challenges = models.BooleanField(_("accept challenges from bots"), default=True)
    # The site's own AI at this level, a bot account on the rating scale
    # (`manage.py ai_accounts`); None for everyone else.
    ai_level = models.PositiveSmallIntegerField(_("the site's AI at level"), null=True,
                                                blank=True, unique=True)
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


class TokenScope(models.TextChoices):
    """What a personal API token may do (named as lichess names its scopes)."""

    READ = "games:read", _("Read your games")
    BOT = "bot:play", _("Play as a bot")
    CHALLENGE = "challenge:write", _("Send, accept and decline challenges")


class ApiToken(models.Model):
    """A personal token of the API (`Authorization: Bearer ...`), stored only as the SHA-256
    of its text: the text is shown once, when it is made (`accounts.tokens`)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    # The first characters of the text, so that its owner can tell their tokens apart.
    prefix = models.CharField(_("beginning"), max_length=12)
    # The scopes of `TokenScope`, separated by spaces.
    scopes = models.CharField(_("scopes"), max_length=100)
    created_at = models.DateTimeField(_("created"))
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"token {self.prefix}… of {self.user_id}"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()


def once_a_pair(relation: str, first: str, second: str) -> list[models.BaseConstraint]:
    """The constraints of a relation of one user to another (a follow, a block): one row a
    pair in each direction, and never a user to themselves."""
    return [
        models.UniqueConstraint(fields=[first, second], name=f"accounts_{relation}_once"),
        models.CheckConstraint(condition=~models.Q(**{first: models.F(second)}),
                               name=f"accounts_{relation}_not_self"),
    ]


class Follow(models.Model):
    """`follower` follows `followed`; two follows either way make them friends."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = once_a_pair("follow", "follower", "followed")

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
        constraints = once_a_pair("block", "blocker", "blocked")

    def __str__(self) -> str:
        return f"{self.blocker_id} x {self.blocked_id}"
