"""The report button's request: a line of chat or a player, and why."""

from __future__ import annotations

from django import forms


class ReportForm(forms.Form):
    message = forms.IntegerField(min_value=1, max_value=2**62, required=False)
    player = forms.CharField(max_length=20, required=False)
    match = forms.IntegerField(min_value=1, max_value=2**62, required=False)
    """For a player: the game they were reported from (they must have sat at it)."""
    reason = forms.CharField(max_length=200, required=False)
    next = forms.CharField(max_length=500, required=False)
