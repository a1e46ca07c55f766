"""The profile's GET parameters."""

from __future__ import annotations

from django import forms


class ProfilePuzzlesForm(forms.Form):
    """The profile's GET parameter: the page of the puzzles played. A value that is no
    page is dropped (the first page), never an error."""

    puzzles_page = forms.IntegerField(required=False, min_value=1, max_value=1_000_000,
                                      widget=forms.HiddenInput)

    @property
    def page_number(self) -> int:
        return (self.cleaned_data.get("puzzles_page") if self.is_valid() else None) or 1
