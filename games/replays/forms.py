"""The forms of the replay pages' query parameters, the history filters and the record
import: each parameter is read here, once."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.play.time_control import LIVE, UNTIMED, TimeControl
from games.replays.history import AGAINST_AI, AGAINST_PEOPLE, HistoryFilters
from games.replays.services import MAX_RECORD_BYTES

MAX_PLY = 100_000
"""Past any game's length (the engine's move limit is far below): `?ply=` is clamped to it."""
MAX_PAGE = 1_000_000
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(9999, 12, 30)
"""The filters' dates lie in these bounds: the day after the last one is still a date."""


class ReplayQueryForm(forms.Form):
    """The replay page's `?ply=N`: the position it opens at (else the script's choice)."""

    ply = forms.IntegerField(required=False, min_value=0, max_value=MAX_PLY)


class RecordQueryForm(forms.Form):
    """The record's `?view=1`: shown in the browser rather than downloaded."""

    view = forms.ChoiceField(required=False, choices=[("", ""), ("1", "1")])


def _time_control_choices() -> list[tuple[str, Any]]:
    return [("", _("Any")), (UNTIMED.key, UNTIMED.label),
            *((control.key, control.label) for control in LIVE)]


class HistoryFilterForm(forms.Form):
    """GET filters of a history list. Invalid values are dropped, never an error page."""

    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)
    result = forms.ChoiceField(label=_("Result"), required=False)
    rated = forms.ChoiceField(
        label=_("Rated"),
        required=False,
        choices=[("", _("Any")), ("rated", _("Rated")), ("casual", _("Casual"))],
    )
    against = forms.ChoiceField(
        label=_("Against"),
        required=False,
        choices=[("", _("Anyone")), (AGAINST_PEOPLE, _("People")), (AGAINST_AI, _("The AI"))],
    )
    time_control = forms.ChoiceField(label=_("Time control"), required=False)
    players = forms.ChoiceField(
        label=_("Players"),
        required=False,
        choices=[("", _("Any")), ("2", "2"), ("3", "3"), ("4", "4")],
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    page = forms.IntegerField(required=False, min_value=1, max_value=MAX_PAGE,
                              widget=forms.HiddenInput)

    def __init__(self, *args: Any, for_player: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.for_player = for_player
        if for_player:
            result_choices = [("", _("Any")), ("win", _("Won")), ("loss", _("Lost")),
                              ("draw", _("Drawn"))]
            self.fields["opponent"].label = _("Opponent")
        else:
            result_choices = [("", _("Any")), ("decided", _("Decided")), ("draw", _("Drawn"))]
            self.fields["opponent"].label = _("Player")
        self.fields["result"].choices = result_choices
        self.fields["time_control"].choices = _time_control_choices()
        for name in ("date_from", "date_to"):
            self.fields[name].validators += [MinValueValidator(FIRST_DAY),
                                             MaxValueValidator(LAST_DAY)]

    def filters(self, *, opponent: User | None) -> HistoryFilters:
        """The filters of the valid fields (call after ``is_valid``; bad fields are ignored)."""
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        rated = {"rated": True, "casual": False}.get(data.get("rated") or "")
        players = data.get("players") or ""
        return HistoryFilters(
            opponent_id=opponent.pk if opponent is not None else None,
            result=data.get("result") or "",
            rated=rated,
            against=data.get("against") or "",
            time_control=TimeControl.parse(data["time_control"])
            if data.get("time_control") else None,
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            n_players=int(players) if players else None,
        )

    @property
    def page_number(self) -> int:
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return data.get("page") or 1

    @property
    def active(self) -> bool:
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return any(value not in (None, "") for name, value in data.items() if name != "page")


class RecordImportForm(forms.Form):
    text = forms.CharField(
        label=_("Paste a game record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "autocomplete": "off"}),
    )
    file = forms.FileField(label=_("or upload a record file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(
                    _("The file is too large to be a game record."), code="too_large"
                )
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    _("The file is not a text file (UTF-8)."), code="not_text"
                ) from None
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(
                _("Paste a game record or choose a file."), code="empty"
            )
        return data
