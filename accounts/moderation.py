"""What a player may write (game chat, a profile's bio) and the staff's mutes.

- A text is one line of printable characters (emoji are welcome); its length is the caller's.
- An account younger than `CHAT_NEW_ACCOUNT_DAYS` may not write a link, an e-mail address or a
  phone number: the spammer's first use of a new account.
- A muted player is told that they are muted and until when (never a mute they cannot see).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validators import has_control_characters

_LINK = re.compile(
    r"(?:[a-z][a-z0-9+.-]*://|\bwww\.|\b[\w-]+\.(?:com|net|org|ru|pl|eu|io|me|ly|gg|tv|info|xyz"
    r"|app|dev|site|online|link|to|co|uk|de|su|рф)\b)",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# Seven digits or more, whatever stands between them (spaces, dots, dashes, brackets).
_PHONE = re.compile(r"(?:\d[\s().\-/]*){7,}")


def text_refusal(*, user: User, text: str, now: datetime | None = None) -> str | None:
    """Why `user` may not write `text` (translated words), or None."""
    if not text.strip():
        return _("Write something first.")
    if has_control_characters(text):
        return _("A message is one line of text.")
    now = now or timezone.now()
    young = now - user.date_joined < timedelta(days=settings.CHAT_NEW_ACCOUNT_DAYS)
    if young and (_LINK.search(text) or _EMAIL.search(text) or _PHONE.search(text)):
        return _("Links, e-mail addresses and phone numbers are allowed from accounts a week "
                 "old.")
    return None


def mute_words(*, user: User, now: datetime | None = None) -> str | None:
    """What a muted player is told (translated), or None when they may speak."""
    if user.chat_muted_for_good:
        return _("You are muted in chat for good.")
    until = user.chat_muted_until
    if until is not None and until > (now or timezone.now()):
        local = timezone.localtime(until)
        return _("You are muted in chat until %(until)s.") % {
            "until": formats.date_format(local, "DATETIME_FORMAT")}
    return None


def user_mute(*, users: QuerySet[User], minutes: int | None,
              now: datetime | None = None) -> int:
    """Mute `users` in chat for `minutes`, or (None) for good. Returns how many."""
    if minutes is None:
        return users.update(chat_muted_for_good=True)
    until = (now or timezone.now()) + timedelta(minutes=minutes)
    return users.update(chat_muted_until=until)


def user_unmute(*, users: QuerySet[User]) -> int:
    return users.update(chat_muted_until=None, chat_muted_for_good=False)
