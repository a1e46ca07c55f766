"""Forms of the arenas: a new arena, and the AI's opt-in."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.play.forms import time_control_choices
from games.play.time_control import TimeControl

STARTS_IN_MINUTES = (5, 10, 15, 30, 60, 120, 360, 1440)
DURATION_MINUTES = (20, 30, 45, 60, 90, 120)


def _minutes_choices(values: tuple[int, ...]) -> list[tuple[int, str]]:
    return [(m, ngettext_lazy("%(count)d minute", "%(count)d minutes", m) % {"count": m})
            for m in values]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, min_length=3,
                           help_text=_("Between 3 and 60 characters."))
    time_control = forms.TypedChoiceField(label=_("Time control"), coerce=TimeControl.parse,
                                          initial="3+2")
    starts_in = forms.TypedChoiceField(label=_("Starts in"), coerce=int, initial=10,
                                       choices=_minutes_choices(STARTS_IN_MINUTES))
    minutes = forms.TypedChoiceField(label=_("Duration"), coerce=int, initial=45,
                                     choices=_minutes_choices(DURATION_MINUTES))
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    public = forms.BooleanField(
        label=_("Public"), required=False, initial=True,
        help_text=_("A private tournament is not listed: share its link with the players."))

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["time_control"].choices = time_control_choices(untimed=False)

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if len(name) < 3:
            raise forms.ValidationError(_("Between 3 and 60 characters."))
        return name


class AIOptInForm(forms.Form):
    on = forms.BooleanField(required=False)
