"""Forms of matchmaking: a challenge (to a player, or an open link), the player a new
challenge's link names (`?to=`), the pool of a quick pairing, a seat at a table, and the
leaderboard's tab (`?mode=`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import RatingMode
from games.play.forms import time_control_choices
from games.play.time_control import LIVE


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        label=_("Opponent"), max_length=20, required=False,
        help_text=_("Leave empty to get a link that anyone may accept."),
    )
    time_control = forms.ChoiceField(label=_("Time control"), initial="3+2")
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["time_control"].choices = time_control_choices(
            untimed=False, correspondence=True, untimed_correspondence=True)


class ChallengeTargetForm(forms.Form):
    """`/challenge/new/?to=NAME`: the opponent the form starts with."""

    to = forms.CharField(max_length=20, required=False)


class PoolJoinForm(forms.Form):
    """A quick pairing from the home page: the pool (a time control) to wait in."""

    pool = forms.ChoiceField(choices=[(control.key, control.key) for control in LIVE])


class TableJoinForm(forms.Form):
    """Sitting down at a table from its page (a private table's link): the seat, or the
    first empty one."""

    seat = forms.TypedChoiceField(coerce=int, required=False, empty_value=None,
                                  choices=[("", "")] + [(str(i), str(i)) for i in range(4)])


LEADERBOARD_MODES = (RatingMode.DUEL, RatingMode.CORRESPONDENCE, RatingMode.TABLE)


class LeaderboardForm(forms.Form):
    """`/leaderboard/?mode=`: the rating whose board is shown (the duel's when none is given)."""

    mode = forms.ChoiceField(choices=[(mode, mode) for mode in LEADERBOARD_MODES],
                             required=False)

    def chosen_mode(self) -> str:
        return self.cleaned_data.get("mode") or RatingMode.DUEL
