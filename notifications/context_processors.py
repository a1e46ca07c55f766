"""What every page's header needs of the notifications: the badge's count and the words of
the header's script (which holds no text of its own)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.translation import gettext as _

from notifications import selectors


def notification_labels() -> dict[str, str]:
    return {
        "none": _("No notifications yet."),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "answer": _("Answer"),
        "dismiss": _("Dismiss"),
        "unread": _("%(count)s unread"),
    }


def notifications(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "notifications_unread": selectors.unread_count(user_id=user.pk),
        "notifications_config": {
            "labels": notification_labels(),
            "readUrl": reverse("notifications:read_all"),
            # The read endpoint of one notification, its id written 0 (the script puts it).
            "readOneUrl": reverse("notifications:read", args=[0]),
            "csrfToken": get_token(request),
        },
    }
