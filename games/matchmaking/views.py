"""Pages of matchmaking: the lobby, challenges, the leaderboard. Thin: they read through
selectors and act through services; refusals come back as messages."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import ratings
from accounts.models import RatingMode
from accounts.selectors import user_get_by_username
from games.matchmaking import selectors, services, tables
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.forms import (
    ChallengeForm,
    ChallengeTargetForm,
    LeaderboardForm,
    PoolJoinForm,
    TableJoinForm,
)
from games.matchmaking.pools import TABLE_POOL_SIZES, pool_key
from games.play.forms import ai_levels, time_control_choices
from games.play.time_control import CORRESPONDENCE, LIVE, TimeControl
from infra.i18n import plural_labels


def refusal(error: MatchmakingError) -> str:
    """A refusal as the page says it: its message, and a link to the page that resolves it
    (the game to finish first) when there is one."""
    if error.url is None:
        return error.message
    return format_html('{} <a href="{}" data-testid="refusal-link">{}</a>', error.message,
                       error.url, _("Go to that game"))


def lobby_labels() -> dict[str, Any]:
    """Every word the lobby's script shows, translated here (the script holds no text)."""
    return {
        "cancel": _("Cancel"),
        "accept": _("Accept"),
        "yours": _("your seek"),
        "rated": _("rated"),
        "casual": _("casual"),
        "noSeeks": _("No open seeks. Create one!"),
        # Placeholders filled in by the script, so that translators may reorder the words.
        "waiting": plural_labels(
            lambda n: ngettext("%(count)s waiting", "%(count)s waiting", n)
        ),
        "challengeFrom": _("Challenge from %(name)s"),
        "open": _("Open"),
        "liveMatch": _("You are playing a game."),
        "goToGame": _("Go to your game"),
        "paired": _("Opponent found! Starting the game…"),
        "disconnected": _("Connection lost. Reconnecting…"),
        "connectionFailed": _("The connection failed. Trying again…"),
        "connectionFailedFinal": _("The connection failed. Reload the page to try again."),
        "noTables": _("No open tables. Create one!"),
        "emptySeat": _("empty seat"),
        "sitDown": _("Sit down"),
        "leave": _("Leave the table"),
        "start": _("Start the game"),
        "fillAI": _("Seat the AI"),
        "removeAI": _("Remove"),
        "ai": _("AI, level %(level)s"),
        "public": _("public"),
        "private": _("private, by link only"),
        "tableOf": _("%(name)s's table for %(players)s"),
        # A correspondence table's time control (days per move, "3d") with its marker.
        "correspondence": _("%(control)s, correspondence"),
        "waitingForPlayers": _("Waiting for every seat to be taken."),
        # An open correspondence table nobody fills closes (MATCHMAKING_CORRESPONDENCE_TABLE_DAYS).
        "closesIn": plural_labels(
            lambda n: ngettext("closes in %(count)s day", "closes in %(count)s days", n)
        ),
        "fillRest": _("Play now with the AI in the other seats"),
    }


def lobby_config(request: HttpRequest) -> dict[str, Any]:
    return {
        "socketPath": "/ws/lobby/",
        "userId": request.user.pk,
        "labels": lobby_labels(),
        "levels": [[number, name] for number, name in ai_levels()],
    }


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/lobby.html",
        {
            "pools": [control.key for control in LIVE],
            "table_pools": [
                {"players": n,
                 "pools": [(pool_key(players=n, control=c), c.label) for c in LIVE]}
                for n in TABLE_POOL_SIZES
            ],
            "time_controls": time_control_choices(untimed=True, correspondence=True),
            "seek_choices": time_control_choices(untimed=False, correspondence=True),
            # Options a person playing a live game may still choose (played beside it).
            "correspondence_keys": {control.key for control in CORRESPONDENCE},
            "levels": ai_levels(),
            "lobby_config": lobby_config(request),
        },
    )


@login_required
@require_POST
def pool_join(request: HttpRequest) -> HttpResponse:
    """Quick pairing without the lobby's script (the buttons of the home page)."""
    form = PoolJoinForm(request.POST)
    pool = form.cleaned_data["pool"] if form.is_valid() else ""
    try:
        matches = services.pool_join(user=request.user, pool=pool)  # type: ignore[arg-type]
    except MatchmakingError as error:
        messages.error(request, refusal(error))
        return redirect("matchmaking:lobby")
    own = selectors.fresh_match_id(user=request.user) if matches else None  # type: ignore[arg-type]
    if own is not None:
        return redirect(selectors.match_page_url(match_id=own))
    return redirect("matchmaking:lobby")


@login_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    target = ChallengeTargetForm(request.GET)
    initial = {"opponent": target.cleaned_data["to"] if target.is_valid() else ""}
    form = ChallengeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["opponent"].strip()
        opponent = user_get_by_username(username=name) if name else None
        if name and opponent is None:
            form.add_error("opponent", _("No player has that name."))
        else:
            try:
                services.person_check(request.user)  # type: ignore[arg-type]
                challenge = services.challenge_create(
                    challenger=request.user,  # type: ignore[arg-type]
                    challenged=opponent,
                    time_control=form.cleaned_data["time_control"],
                    rated=form.cleaned_data["rated"],
                )
            except MatchmakingError as error:
                form.add_error(None, refusal(error))
            else:
                return redirect("matchmaking:challenge", token=challenge.token)
    return render(request, "games/challenge_new.html", {"form": form})


def challenge_detail(request: HttpRequest, token: str) -> HttpResponse:
    challenge = selectors.challenge_get(token=token)
    if challenge is None:
        raise Http404(_("There is no such challenge."))
    if challenge.match_id is not None and request.user.is_authenticated and request.user.pk in (
        challenge.challenger_id, challenge.challenged_id
    ):
        return redirect(selectors.match_page_url(match_id=challenge.match_id))
    user = request.user
    return render(
        request,
        "games/challenge.html",
        {
            "challenge": challenge,
            "time_control": TimeControl.of(challenge),
            "is_open": selectors.challenge_is_open(challenge=challenge),
            "is_challenger": user.is_authenticated and user.pk == challenge.challenger_id,
            "may_accept": user.is_authenticated and user.pk != challenge.challenger_id and (
                challenge.challenged_id in (None, user.pk)),
            "share_url": request.build_absolute_uri(),
            "lobby_config": lobby_config(request) if user.is_authenticated else None,
        },
    )


@login_required
@require_POST
def challenge_accept(request: HttpRequest, token: str) -> HttpResponse:
    try:
        services.person_check(request.user)  # type: ignore[arg-type]
        match = services.challenge_accept(user=request.user, token=token)  # type: ignore[arg-type]
    except MatchmakingError as error:
        messages.error(request, refusal(error))
        return redirect("matchmaking:challenge", token=token)
    return redirect(selectors.match_page_url(match_id=match.pk))


@login_required
@require_POST
def challenge_decline(request: HttpRequest, token: str) -> HttpResponse:
    try:
        challenge = services.challenge_decline(user=request.user, token=token)  # type: ignore[arg-type]
    except MatchmakingError as error:
        messages.error(request, refusal(error))
        return redirect("matchmaking:challenge", token=token)
    if challenge.challenger_id == request.user.pk:
        messages.info(request, _("Challenge cancelled."))
    else:
        messages.info(request, _("Challenge declined."))
    return redirect("matchmaking:lobby")


@require_GET
def table_detail(request: HttpRequest, token: str) -> HttpResponse:
    """A table's page, where its link leads: who sits where, and a seat for the visitor."""
    table = selectors.table_get(token=token)
    if table is None:
        raise Http404(_("There is no such table."))
    if table.match_id is not None:
        return redirect(selectors.match_page_url(match_id=table.match_id))
    seated = request.user.is_authenticated and table.seats.filter(user=request.user).exists()
    return render(request, "games/table.html", {
        "table": table,
        "row": selectors.table_row(table=table),
        "time_control": TimeControl.of(table),
        "seated": seated,
    })


@login_required
@require_POST
def table_join(request: HttpRequest, token: str) -> HttpResponse:
    """Sit down (from the table's page), then wait at the lobby, whose socket keeps the seat."""
    form = TableJoinForm(request.POST)
    seat = form.cleaned_data["seat"] if form.is_valid() else None
    try:
        match = tables.table_join(user=request.user, token=token, seat=seat)  # type: ignore[arg-type]
    except MatchmakingError as error:
        messages.error(request, refusal(error))
        return redirect("matchmaking:table", token=token)
    if match is not None:
        return redirect(selectors.match_page_url(match_id=match.pk))
    return redirect("matchmaking:lobby")


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """The leaderboard of live duels (the default tab), of correspondence duels
    (`?mode=correspondence`) or of tables of 3-4 (`?mode=table`); an unknown mode is answered
    400 with the tabs that exist."""
    form = LeaderboardForm(request.GET)
    valid = form.is_valid()
    mode = form.chosen_mode() if valid else RatingMode.DUEL
    fewest, most = ratings.ESTABLISHED_AFTER_GAMES
    return render(request, "games/leaderboard.html", {
        "board": selectors.leaderboard(mode=mode),
        "mode": mode,
        "unknown_mode": not valid,
        "tabs": [(RatingMode.DUEL, _("Duels")),
                 (RatingMode.CORRESPONDENCE, _("Correspondence")),
                 (RatingMode.TABLE, _("Tables of 3-4"))],
        "threshold": round(ratings.PROVISIONAL_DEVIATION),
        "fewest_games": fewest,
        "most_games": most,
    }, status=200 if valid else 400)


@login_required
@require_POST
def friend_challenge(request: HttpRequest, username: str) -> HttpResponse:
    """Challenge a player in one click: a casual game at the site's usual time control."""
    them = user_get_by_username(username=username)
    if them is None:
        raise Http404(_("No player has that name."))
    try:
        challenge = services.challenge_create(
            challenger=request.user,  # type: ignore[arg-type]
            challenged=them, time_control=settings.PEOPLE_CHALLENGE_TIME_CONTROL, rated=False)
    except MatchmakingError as error:
        messages.error(request, error.message)
        return redirect("profile", username=them.username)
    return redirect("matchmaking:challenge", token=challenge.token)
