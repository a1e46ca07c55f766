"""The query strings the API reads, as forms (every parameter a view reads goes through one)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from games.replays.forms import HistoryFilterForm


class GamesQueryForm(HistoryFilterForm):
    """A player's games: the history's filters, and how many at most."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, for_player=True, **kwargs)
        self.fields["max"] = forms.IntegerField(required=False, min_value=1,
                                                max_value=settings.API_GAMES_MAX)

    @property
    def count(self) -> int:
        return int(self.cleaned_data.get("max") or settings.API_GAMES_MAX)
