"""Pages of correspondence play: the player's games with the ones waiting for them first
("your turn"), the way on to the next game waiting, and vacations. Thin: they read through
`games.play.your_turn` and act through `games.play.services.correspondence`."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.play.errors import PlayError
from games.play.forms import NextGameForm, VacationForm, YourTurnForm
from games.play.services.correspondence import vacation_end, vacation_start
from games.play.your_turn import (
    correspondence_games,
    next_game,
    vacation_current,
    vacation_days_left,
    vacations_of,
)


@login_required
@require_GET
def your_turn(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    form = YourTurnForm(request.GET)
    number = (form.cleaned_data["page"] if form.is_valid() else None) or 1
    page = correspondence_games(user_id=request.user.pk, page=number)
    return render(request, "games/your_turn.html", {
        "page": page,
        "games": page.games,
        "waiting": page.waiting,
        "now": now,
        "vacation": vacation_current(user_id=request.user.pk, now=now),
    })


@login_required
@require_GET
def next_waiting(request: HttpRequest) -> HttpResponse:
    """To the most urgent game waiting for the player but the one they left (`?after=`),
    or to the list when none waits."""
    form = NextGameForm(request.GET)
    after = form.cleaned_data["after"] if form.is_valid() else None
    found = next_game(user_id=request.user.pk, after=after)
    if found is None:
        messages.info(request, _("No other game is waiting for your move."))
        return redirect("games:your_turn")
    return redirect("games:match", match_id=found)


@login_required
@require_POST
def vacation_stop(request: HttpRequest) -> HttpResponse:
    if vacation_end(user=request.user) is not None:  # type: ignore[arg-type]
        messages.success(request, _("Your vacation is over: your clocks run again."))
    return redirect("games:vacation")


@login_required
@require_http_methods(["GET", "POST"])
def vacation(request: HttpRequest) -> HttpResponse:
    user = request.user
    now = timezone.now()
    left = vacation_days_left(user_id=user.pk, now=now)
    form = VacationForm(request.POST or None, days_left=left)
    if request.method == "POST" and form.is_valid():
        try:
            vacation_start(user=user, days=form.cleaned_data["days"],  # type: ignore[arg-type]
                           now=now)
        except PlayError as error:
            form.add_error("days", error.detail)
        else:
            messages.success(request, _("Your correspondence clocks stand still now."))
            return redirect("games:vacation")
    return render(request, "games/vacation.html", {
        "form": form,
        "days_left": left,
        "allowance": settings.GAMES_VACATION_DAYS_PER_YEAR,
        "current": vacation_current(user_id=user.pk, now=now),
        "vacations": vacations_of(user_id=user.pk),
    })
