"""The replay and history pages: thin views over the replays' selectors and services."""

from __future__ import annotations

import json
from typing import Any

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.selectors import user_get_by_username
from games.play import selectors as play_selectors
from games.play.chat.selectors import replay_lines
from games.play.models import Match, Seat
from games.play.time_control import TimeControl
from games.play.views import board_labels
from games.replays import selectors
from games.replays.forms import (
    HistoryFilterForm,
    RecordImportForm,
    RecordQueryForm,
    ReplayQueryForm,
)
from games.replays.history import history_page
from games.replays.services import (
    RecordNotAvailableError,
    analysis_request,
    record_export,
    record_import,
)
from games.rules import RecordError


def _viewer(request: HttpRequest) -> play_selectors.Viewer:
    user = request.user
    return play_selectors.Viewer(
        user_id=user.pk if user.is_authenticated else None,
        guest_id=request.session.get("guest_id", "") or "",
    )


def _visible_match(request: HttpRequest, match_id: int) -> tuple[Match, int | None,
                                                                  list[Seat]]:
    """The match, the viewer's seat in it and its seats; 404 for a live private match of
    others."""
    match = play_selectors.match_get(match_id=match_id)
    if match is None:
        raise Http404(_("There is no such game."))
    seats = play_selectors.match_seats(match=match)
    seat = play_selectors.seat_of(seats=seats, viewer=_viewer(request))
    if not match.is_over and not match.public and seat is None:
        raise Http404(_("There is no such game."))
    return match, seat, seats


def _initial_ply(request: HttpRequest, n_plies: int, live: bool) -> int:
    """The ply the page opens at: ``?ply=N`` (the script also reads ``#N``); the latest
    position of a live game, else the deal."""
    form = ReplayQueryForm(request.GET)
    ply = form.cleaned_data["ply"] if form.is_valid() else None
    if ply is not None:
        return min(ply, n_plies)
    return n_plies if live else 0


def _replay_context(request: HttpRequest, replay: selectors.Replay) -> dict[str, Any]:
    clock = replay.data.get("clock")
    return {
        "replay": replay,
        "replay_data": replay.data,
        "time_control": clock and TimeControl(clock["initial"], clock["increment"]),
        "initial_ply": _initial_ply(request, replay.n_plies, replay.live),
        "labels": {**replay_labels(), "board": board_labels()},
    }


def replay_labels() -> dict[str, Any]:
    """Every word the replay script shows, translated here (the script has no catalogue)."""
    return {
        "deal": _("The deal"),
        "move": _("Move %(ply)s"),
        "spent": _("%(time)s for this move"),
        "play": _("Play"),
        "pause": _("Pause"),
        "analysis_pending": _("The AI is analysing this game…"),
        "analysis_summary": _("Positions the AI proved exactly: %(exact)s of %(total)s; the "
                              "others are estimates of its search."),
        "mark_counts": _("Blunders: %(blunder)s · mistakes: %(mistake)s · inaccuracies: "
                         "%(inaccuracy)s."),
        "kinds": {"inaccuracy": _("Inaccuracy"), "mistake": _("Mistake"),
                  "blunder": _("Blunder")},
        "mark_exact": _("%(kind)s, proven: this move changed the game's exact value"),
        "mark_estimate": _("%(kind)s, estimated by the AI's search"),
        "value_words": {"1": _("won"), "0": _("drawn"), "-1": _("lost")},
        "mark_detail": _("%(before)s before this move, %(after)s after it (for %(name)s)"),
        "mark_fell": _("the evaluation for %(name)s fell from %(before)s to %(after)s"),
        "mark_best": _("Kept the value: %(moves)s"),
        "mark_preferred": _("The AI's search preferred: %(moves)s"),
        "graph": _("The AI's evaluation of every position: click or drag to go to a move"),
        "legend": _("The expected score of %(top)s: +1 at the top, %(top)s wins; -1 at the "
                    "bottom, %(bottom)s wins. A thick line is proven exactly, a thin one "
                    "is the search's estimate."),
        "eval_estimate": _("Evaluation: %(value)s (an estimate)"),
        "eval_exact_win": _("Evaluation: %(name)s wins (proven)"),
        "eval_exact_draw": _("Evaluation: a draw (proven)"),
    }


@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    match, seat, seats = _visible_match(request, match_id)
    # A finished duel's first view asks the workers for the AI's analysis (never run here).
    analysis_request(match=match)
    data = selectors.replay_of_match(match=match, viewer_seat=seat, seats=seats)
    context = _replay_context(request, data)
    if seat is not None:  # the players' chat is shown again to the players only
        viewer = _viewer(request)
        context["show_players_chat"] = True
        context["chat_lines"] = replay_lines(match_id=match.pk, user_id=viewer.user_id,
                                             guest_id=viewer.guest_id)
    return render(request, "games/replay.html", context)


@require_GET
def replay_data(request: HttpRequest, match_id: int) -> HttpResponse:
    """The replay's data as JSON: a live replay fetches it again after each move."""
    match, seat, seats = _visible_match(request, match_id)
    # Every spectator of a live game fetches this after each move: one computation per
    # version (and seat) serves them all.
    analysis = selectors.analysis_get(match_id=match.pk) if match.is_over else None
    status = analysis["status"] if analysis else ""
    key = f"replays:data:{match.pk}:{match.version}:{'-' if seat is None else seat}:{status}"
    body = cache.get(key)
    if body is None:
        # The encoded text is kept: decoding and encoding a long game costs more than
        # sending it.
        replay = selectors.replay_of_match(match=match, viewer_seat=seat, seats=seats)
        body = json.dumps(replay.data,
                          cls=DjangoJSONEncoder, separators=(",", ":")).encode()
        cache.set(key, body, 120)
    response = HttpResponse(body, content_type="application/json")
    response["Cache-Control"] = "private, max-age=60" if match.is_over else "no-store"
    return response


@require_GET
def record(request: HttpRequest, match_id: int) -> HttpResponse:
    """The game record of a match, as a file to download."""
    match, _seat, _seats = _visible_match(request, match_id)
    if not selectors.record_available(match=match):
        raise Http404(_("The record of a game of three or four is shown once it is over."))
    try:
        text = record_export(
            match=match,
            site_url=request.build_absolute_uri(reverse("replays:replay", args=[match.pk])),
        )
    except RecordNotAvailableError:
        raise Http404(_("This game has not been dealt yet.")) from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    query = RecordQueryForm(request.GET)
    if not (query.is_valid() and query.cleaned_data["view"] == "1"):
        response["Content-Disposition"] = f'attachment; filename="yourtrumps-{match.pk}.txt"'
    return response


@require_http_methods(["GET", "POST"])
def record_import_view(request: HttpRequest) -> HttpResponse:
    """Paste or upload a record: shown as a replay, or the form again with the line at fault."""
    form = RecordImportForm(request.POST or None, request.FILES or None)
    error: RecordError | None = None
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        try:
            parsed = record_import(text=text)
        except RecordError as caught:
            error = caught
        else:
            replay_data = selectors.replay_of_record(record=parsed, text=text)
            context = _replay_context(request, replay_data)
            context["imported"] = True
            return render(request, "games/replay.html", context)
    context: dict[str, Any] = {"form": form}
    if error is not None:
        problem = str(error).split(": ", 1)[1] if ": " in str(error) else str(error)
        context["record_error"] = {"line": error.line, "problem": problem}
        context["record_lines"] = _numbered_lines(form.cleaned_data.get("text", ""), error.line)
    return render(request, "games/replay_import.html", context, status=400 if error else 200)


def _numbered_lines(text: str, fault: int, around: int = 2) -> list[dict[str, Any]]:
    """The lines near the fault, numbered, to show with the error."""
    lines = text.replace("\r\n", "\n").split("\n")
    first = max(1, fault - around)
    last = min(len(lines), fault + around)
    return [{"number": n, "text": lines[n - 1], "fault": n == fault}
            for n in range(first, last + 1)]


def _history(request: HttpRequest, *, player: Any = None) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None, for_player=player is not None)
    form.is_valid()
    opponent = None
    unknown_opponent = ""
    name = (form.cleaned_data.get("opponent") or "").strip() if hasattr(
        form, "cleaned_data") else ""
    if name:
        opponent = user_get_by_username(username=name)
        if opponent is None:
            unknown_opponent = name
    filters = form.filters(opponent=opponent)
    if unknown_opponent:
        page, rows = None, []
    else:
        page, rows = history_page(
            filters=filters,
            page_number=form.page_number,
            player_id=player.pk if player is not None else None,
        )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/history.html",
        {
            "form": form,
            "player": player,
            "page": page,
            "rows": rows,
            "unknown_opponent": unknown_opponent,
            "query": query.urlencode(),
        },
    )


@require_GET
def history(request: HttpRequest) -> HttpResponse:
    """Every finished game of the site, newest first, with filters."""
    return _history(request)


@require_GET
def player_history(request: HttpRequest, username: str) -> HttpResponse:
    """A player's finished games, newest first, with filters."""
    player = user_get_by_username(username=username)
    if player is None:
        raise Http404(_("No player has that name."))
    if player.username != username:
        return redirect("replays:player_history", username=player.username, permanent=True)
    return _history(request, player=player)
