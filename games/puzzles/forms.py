"""The puzzle pages' input, each parameter read here once: the next puzzle's filters (GET)
and a play's moves (the JSON body of a move)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.puzzles.models import THEME_LABELS

RATING_BOUNDS = (0, 4000)
MAX_MOVES = 20
"""Past any stored line's moves of the player (a line has at most 15 moves of both)."""


class PuzzleFilterForm(forms.Form):
    """The next puzzle's filters: themes (every one chosen), a rating range, and the
    difficulty relative to the player's rating."""

    themes = forms.MultipleChoiceField(
        label=_("Themes"), required=False, choices=list(THEME_LABELS.items()),
        widget=forms.CheckboxSelectMultiple)
    rating_min = forms.IntegerField(label=_("Rating from"), required=False,
                                    min_value=RATING_BOUNDS[0], max_value=RATING_BOUNDS[1])
    rating_max = forms.IntegerField(label=_("Rating to"), required=False,
                                    min_value=RATING_BOUNDS[0], max_value=RATING_BOUNDS[1])
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), required=False,
        choices=[("normal", _("Normal")), ("easier", _("Easier")), ("harder", _("Harder"))])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(
                _("The lowest rating must not be above the highest."), code="range")
        return data


class PuzzleMovesForm(forms.Form):
    """The player's moves so far in one play, space-separated, the newest last."""

    moves = forms.CharField(max_length=MAX_MOVES * 6, required=False, strip=True)

    def clean_moves(self) -> list[str]:
        moves = str(self.cleaned_data.get("moves") or "").split()
        if len(moves) > MAX_MOVES:
            raise forms.ValidationError(_("Too many moves."), code="too_many")
        return moves
