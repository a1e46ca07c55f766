"""Forms of play: starting a game against the AI."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.play.models import Variant
from games.play.services import TIME_CONTROLS

UNTIMED = "untimed"


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


def time_control_choices() -> list[tuple[str, str]]:
    choices = [(UNTIMED, str(_("Untimed")))]
    for initial, increment in TIME_CONTROLS:
        choices.append((f"{initial}+{increment}", f"{initial // 60}+{increment}"))
    return choices


def parse_time_control(value: str) -> tuple[int | None, int]:
    """(initial seconds, increment seconds) of a choice; (None, 0) when untimed."""
    if value == UNTIMED:
        return None, 0
    initial, increment = value.split("+")
    return int(initial), int(increment)


class PlayAIForm(forms.Form):
    level = forms.TypedChoiceField(label=_("Level"), coerce=int, initial=1)
    time_control = forms.ChoiceField(label=_("Time control"), initial=UNTIMED)
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices,
                                initial=Variant.STANDARD)

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = ai_levels()
        self.fields["time_control"].choices = time_control_choices()
