"""The pages of the arenas: the list, a new arena, an arena's page, and its buttons (join,
pause, withdraw, the AI's opt-in; berserk from an arena game's page). Thin: a form, a
service, a redirect; a refusal is shown as a message on the page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.tournaments import selectors, services
from games.tournaments.errors import TournamentError
from games.tournaments.forms import AIOptInForm, TournamentForm
from games.tournaments.models import Tournament, TournamentKind


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    lists = selectors.tournament_lists()
    return render(request, "tournaments/list.html", {
        "sections": [
            ("running", _("In progress"), lists["running"]),
            ("upcoming", _("Starting soon"), lists["upcoming"]),
            ("finished", _("Finished"), lists["finished"]),
        ],
    })


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                creator=request.user,  # type: ignore[arg-type]
                name=data["name"], time_control=data["time_control"],
                starts_at=timezone.now() + timedelta(minutes=data["starts_in"]),
                minutes=0 if data["kind"] == TournamentKind.SWISS else data["minutes"],
                rounds=data["rounds"] if data["kind"] == TournamentKind.SWISS else None,
                rated=data["rated"], public=data["public"],
            )
        except TournamentError as error:
            form.add_error(None, error.message)
        else:
            return redirect("tournaments:detail", token=tournament.token)
    return render(request, "tournaments/new.html", {"form": form})


def _tournament(token: str) -> Tournament:
    tournament = selectors.tournament_get(token=token)
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    return tournament


def tournament_labels() -> dict[str, Any]:
    """The words the page's script shows (the server's, in the page's language)."""
    return {
        "startsIn": _("Starts in"), "endsIn": _("Ends in"), "finished": _("Finished"),
        "rank": _("Rank"), "player": _("Player"), "rating": _("Rating"),
        "score": _("Score"), "games": _("Games"), "onFire": _("On fire"),
        "berserk": _("Berserk"), "paused": _("Paused"), "vs": _("vs"),
        "noGames": _("No game in progress."), "noPlayers": _("Nobody has joined yet."),
        "yourGame": _("Your game is on: go to it"),
        "connecting": _("Connecting…"), "reconnecting": _("Reconnecting…"),
        "roundOf": _("Round %(round)s of %(rounds)s"), "bye": _("Bye"),
    }


@require_GET
def tournament_detail(request: HttpRequest, token: str) -> HttpResponse:
    tournament = _tournament(token)
    user = request.user if request.user.is_authenticated else None
    state = selectors.tournament_state(tournament=tournament, user=user)  # type: ignore[arg-type]
    return render(request, "tournaments/detail.html", {
        "tournament": tournament,
        "title": selectors.tournament_title(tournament),
        "state": state,
        "ai_after_seconds": int(settings.TOURNAMENTS_AI_AFTER_SECONDS),
        "config": {
            "socketPath": f"/ws/tournament/{tournament.token}/",
            "labels": tournament_labels(),
            "state": state,
        },
    })


@login_required
@require_POST
def tournament_act(request: HttpRequest, token: str, action: str) -> HttpResponse:
    """A player joins, pauses, withdraws or asks for the AI (`action`, set by the URL)."""
    user = request.user
    try:
        if action == "join":
            participant = services.tournament_join(user=user, token=token)  # type: ignore[arg-type]
            # Paired as they joined (or back while their game goes on): straight to the game.
            game_url = selectors.game_in_progress_url(tournament=participant.tournament,
                                                      user=user)  # type: ignore[arg-type]
            if game_url is not None:
                return redirect(game_url)
        elif action == "pause":
            services.tournament_pause(user=user, token=token)  # type: ignore[arg-type]
        elif action == "withdraw":
            services.tournament_withdraw(user=user, token=token)  # type: ignore[arg-type]
        elif action == "ai":
            form = AIOptInForm(request.POST)
            form.is_valid()
            services.participant_ai_opt_in(user=user, token=token,  # type: ignore[arg-type]
                                           on=bool(form.cleaned_data.get("on")))
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect("tournaments:detail", token=token)


@login_required
@require_POST
def arena_berserk(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        services.arena_berserk(user=request.user, match_id=match_id)  # type: ignore[arg-type]
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect("games:match", match_id)
