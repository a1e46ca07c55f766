"""What play does on the signals of accounts (`accounts.signals`): an account is not deleted
while it sits in a game that is not over, which would be left without its player."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.signals import user_deleting
from games.play.models import Seat, Status


def _refuse_while_playing(*, user: User, **_signal: Any) -> None:
    if Seat.objects.filter(user=user, match__status__in=[Status.TRUMPS, Status.PLAYING]).exists():
        raise ValidationError(
            _("You are in a game that is not over yet. Finish or resign it first.")
        )


def connect_signals() -> None:
    user_deleting.connect(_refuse_while_playing, sender=User,
                          dispatch_uid="play.refuse_deleting_while_playing")
