"""Forms of play: starting a game against the AI."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.play.models import Variant
from games.play.time_control import LIVE, UNTIMED, TimeControl

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


def time_control_choices(*, untimed: bool) -> list[tuple[str, str]]:
    """The offered time controls as form choices (keys, labels), the untimed game first."""
    controls = (UNTIMED, *LIVE) if untimed else LIVE
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
