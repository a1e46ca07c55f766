"""Forms of the arenas: a new arena, and the AI's opt-in."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.play.forms import time_control_choices
from games.play.time_control import TimeControl
from games.tournaments.models import TournamentKind

STARTS_IN_MINUTES = (5, 10, 15, 30, 60, 120, 360, 1440)
DURATION_MINUTES = (20, 30, 45, 60, 90, 120)
ROUNDS = tuple(range(3, 12))


def _minutes_choices(values: tuple[int, ...]) -> list[tuple[int, str]]:
    return [(m, ngettext_lazy("%(count)d minute", "%(count)d minutes", m) % {"count": m})
            for m in values]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, min_length=3,
                           help_text=_("Between 3 and 60 characters."))
    kind = forms.ChoiceField(
        label=_("Kind"), choices=TournamentKind.choices, initial=TournamentKind.ARENA,
        help_text=_("An arena lasts a set time and pairs players as soon as they are free; "
                    "a Swiss pairs everyone at each round, for a set number of rounds."))
    time_control = forms.TypedChoiceField(label=_("Time control"), coerce=TimeControl.parse,
                                          initial="3+2")
    starts_in = forms.TypedChoiceField(label=_("Starts in"), coerce=int, initial=10,
                                       choices=_minutes_choices(STARTS_IN_MINUTES))
    minutes = forms.TypedChoiceField(label=_("Duration"), coerce=int, initial=45,
                                     choices=_minutes_choices(DURATION_MINUTES),
                                     help_text=_("An arena's."))
    rounds = forms.TypedChoiceField(label=_("Rounds"), coerce=int, required=False,
                                    empty_value=None, initial=5,
                                    choices=[(n, str(n)) for n in ROUNDS],
                                    help_text=_("A Swiss's."))
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

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("kind") == TournamentKind.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("Choose the number of rounds of a Swiss."))
        return data


class AIOptInForm(forms.Form):
    on = forms.BooleanField(required=False)
