"""Forms of matchmaking: a challenge (to a player, or an open link)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.play.forms import time_control_choices


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        label=_("Opponent"), max_length=20, required=False,
        help_text=_("Leave empty to get a link that anyone may accept."),
    )
    time_control = forms.ChoiceField(label=_("Time control"), initial="3+2")
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["time_control"].choices = time_control_choices(untimed=False)
