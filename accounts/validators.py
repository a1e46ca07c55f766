"""Rules for usernames: short, readable in a URL (`/@/<name>`), and not impersonating the site."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

RESERVED_USERNAMES = frozenset(
    {
        "admin", "administrator", "root", "staff", "support", "help", "system", "moderator",
        "mod", "official", "yourtrumps", "your-trumps", "your_trumps", "ai", "bot", "computer",
        "anonymous", "guest", "deleted", "deleted-user", "null", "none", "api", "www", "mail",
        "login", "logout", "signup", "account", "accounts", "settings", "static", "media",
        "play", "lobby", "games", "game", "match", "replay", "healthz", "about", "rules",
    }
)


def validate_not_reserved(value: str) -> None:
    if value.lower() in RESERVED_USERNAMES:
        raise ValidationError(_("This username is reserved."), code="reserved")


USERNAME_PATTERN = "[A-Za-z0-9_-]{3,20}"
"""A username, also as a URL path converter reads it (`infra.converters`)."""

username_validators = [
    RegexValidator(
        rf"^{USERNAME_PATTERN}\Z",
        _("Use 3 to 20 characters: letters, digits, _ and -."),
        code="invalid_username",
    ),
    validate_not_reserved,
]


def has_control_characters(text: str) -> bool:
    """Whether free text (an announcement, a chat line, a bio) holds a NUL byte or another
    control character, which no form of the site takes either."""
    return any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in text)
