"""The user of the site: the custom model exists from the first migration on purpose.

Usernames are unique ignoring case (so `Anna` and `anna` cannot both exist), and so are
non-empty e-mail addresses, because both are used to log in.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

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
