"""Forms of play: starting a game against the AI."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from games.play.models import Variant
from games.play.time_control import (
    CORRESPONDENCE,
    CORRESPONDENCE_UNTIMED,
    LIVE,
    UNTIMED,
    TimeControl,
)

# The names of the AI's levels (`games.ai.LEVELS`), translated here.
LEVEL_NAMES = {
    "beginner": _("beginner"),
    "greedy": _("greedy"),
    "club player": _("club player"),
    "expert": _("expert"),
}


def ai_levels() -> list[tuple[int, str]]:
    """The AI's levels, weakest first, with their names."""
    from games.ai import LEVELS

    return [
        (level.number, f"{level.number} · {LEVEL_NAMES.get(level.name, level.name)}")
        for level in LEVELS
    ]


def time_control_choices(*, untimed: bool, correspondence: bool = False,
                         untimed_correspondence: bool = False) -> list[tuple[str, str]]:
    """The offered time controls as form choices (keys, labels), the untimed game first,
    then the live ones and, if asked, the days per move (and the correspondence game
    without a clock)."""
    controls: list[TimeControl] = [UNTIMED, *LIVE] if untimed else [*LIVE]
    if correspondence:
        controls += CORRESPONDENCE
    if untimed_correspondence:
        controls.append(CORRESPONDENCE_UNTIMED)
    return [(control.key, control.label) for control in controls]


class PlayAIForm(forms.Form):
    level = forms.TypedChoiceField(label=_("Level"), coerce=int, initial=1)
    time_control = forms.TypedChoiceField(label=_("Time control"), coerce=TimeControl.parse,
                                          initial=UNTIMED.key)
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices,
                                initial=Variant.STANDARD)

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = ai_levels()
        self.fields["time_control"].choices = time_control_choices(untimed=True)


class YourTurnForm(forms.Form):
    """`/play/your-turn/?page=N`."""

    page = forms.IntegerField(required=False, min_value=1, max_value=10_000)


class NextGameForm(forms.Form):
    """`/play/next/?after=ID`: the game just left, which is not the next one."""

    after = forms.IntegerField(required=False, min_value=1, max_value=2**63 - 1)


class VacationForm(forms.Form):
    """How many days of vacation to take now (at most what is left of the year's)."""

    days = forms.IntegerField(label=_("Days"), min_value=1, initial=7)

    def __init__(self, *args, days_left: int, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        field = self.fields["days"]
        field.max_value = max(1, days_left)
        field.widget.attrs["max"] = max(1, days_left)
        field.initial = min(7, max(1, days_left))
        field.validators.append(MaxValueValidator(max(1, days_left)))
