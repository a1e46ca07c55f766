"""The puzzle pages: the next puzzle by the player's filters, one puzzle, the daily puzzle,
the streak; and the two JSON acts of a play, a move and the solution. Thin: the selectors
choose, the services record, ``games.puzzles.solving`` follows the line.

An account's plays are rated (each puzzle once); a guest's are unrated and their puzzles
live in their session (``games.puzzles.players``)."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import ratings
from accounts.models import User
from games.play.views import board_labels
from games.puzzles import selectors, services
from games.puzzles.board import puzzle_board_state, puzzle_board_states
from games.puzzles.daily import puzzle_daily
from games.puzzles.forms import PuzzleFilterForm, PuzzleMovesForm
from games.puzzles.models import Puzzle, theme_labels
from games.puzzles.players import GuestPuzzles, Streak
from games.puzzles.solving import PuzzleMoveError, puzzle_follow, puzzle_line

BAD_REQUEST = 400


def _user(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None  # type: ignore[return-value]


def _guest(request: HttpRequest) -> GuestPuzzles | None:
    return None if request.user.is_authenticated else GuestPuzzles.load(request.session)


@require_GET
def next_puzzle(request: HttpRequest) -> HttpResponse:
    """The puzzle nearest the player's rating (easier or harder if asked) that they never
    played, with every theme chosen and within the rating range."""
    form = PuzzleFilterForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        return _page(request, None, mode="next", form=form, status=BAD_REQUEST)
    data = form.cleaned_data if form.is_bound else {}
    user, guest = _user(request), _guest(request)
    filters = {"themes": tuple(data.get("themes") or ()), "low": data.get("rating_min"),
               "high": data.get("rating_max")}
    puzzle = selectors.puzzle_next(
        user_id=user.pk if user is not None else None,
        target=selectors.puzzle_target(user=user, difficulty=data.get("difficulty") or ""),
        exclude=guest.exclude if guest is not None else (), **filters)
    return _page(request, puzzle, mode="next", form=form, next_url=request.get_full_path(),
                 filtered=bool(filters["themes"]) or filters["low"] is not None
                 or filters["high"] is not None,
                 absence=selectors.puzzle_absence(**filters) if puzzle is None else "")


@require_GET
def show(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
    if puzzle is None:
        raise Http404(_("There is no such puzzle."))
    return _page(request, puzzle, mode="show")


@require_GET
def daily(request: HttpRequest) -> HttpResponse:
    puzzle = puzzle_daily(day=timezone.now().date())
    return _page(request, puzzle, mode="daily", absence="none_yet" if puzzle is None else "")


@require_GET
def streak(request: HttpRequest) -> HttpResponse:
    """The streak's puzzle (the same one until it is played) and its counts."""
    user, guest = _user(request), _guest(request)
    puzzle, current = services.streak_puzzle(user=user, guest=guest)
    if guest is not None:
        guest.save(request.session)
    return _page(request, puzzle, mode="streak", streak=current,
                 next_url=reverse("puzzles:streak"),
                 absence=selectors.puzzle_absence() if puzzle is None else "")


def _page(request: HttpRequest, puzzle: Puzzle | None, *, mode: str,
          form: PuzzleFilterForm | None = None, streak: Streak | None = None,
          next_url: str = "", status: int = 200, absence: str = "",
          filtered: bool = False) -> HttpResponse:
    """The puzzle page; with no puzzle, ``absence`` says why (``selectors.puzzle_absence``)
    and ``filtered`` whether the player chose filters."""
    user = _user(request)
    context: dict[str, Any] = {"puzzle": puzzle, "mode": mode, "form": form, "streak": streak,
                               "next_url": next_url or reverse("puzzles:next"),
                               "absence": absence, "filtered": filtered}
    if puzzle is not None:
        played = (selectors.puzzle_attempt_of(user=user, puzzle_id=puzzle.pk)
                  if user is not None else None)
        guest = _guest(request)
        played_before = played is not None or (guest is not None and puzzle.pk in guest.played)
        context.update({
            # The themes give the answer away: shown once the player's play of it is over
            # (here, or with the end of a play: ``_end_data``).
            "themes": theme_labels(puzzle.themes) if played_before else [],
            "game_url": (f"{reverse('replays:replay', args=[puzzle.match_id])}?ply={puzzle.ply}"
                         if puzzle.match_id is not None and puzzle.ply is not None else ""),
            "played_before": played_before,
            "puzzle_config": {
                "puzzleId": puzzle.pk,
                "moveUrl": reverse("puzzles:move", args=[puzzle.pk]),
                "solutionUrl": reverse("puzzles:solution", args=[puzzle.pk]),
                "state": puzzle_board_state(
                    puzzle_id=puzzle.pk, ply=0, over=False,
                    progress=puzzle_follow(tpn=puzzle.tpn, solution=puzzle.solution, moves=[])),
                "rated": user is not None,
                "labels": {**board_labels(), **puzzle_labels()},
            },
        })
    return render(request, "puzzles/puzzle.html", context, status=status)


def _moves_form(request: HttpRequest) -> PuzzleMovesForm | None:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(body, dict) or not isinstance(body.get("moves", ""), str):
        return None
    return PuzzleMovesForm({"moves": body.get("moves", "")})


def _refused(code: str, detail: str, status: int = BAD_REQUEST) -> JsonResponse:
    return JsonResponse({"error": detail, "code": code}, status=status)


def _end_data(end: services.PlayEnd, puzzle: Puzzle) -> dict[str, Any]:
    """The end of a play as the page shows it, with the puzzle's themes: never sent before
    the play is over, since they tell the answer."""
    delta = (ratings.shown_change(end.rating_before, end.rating_after)
             if end.rating_before is not None and end.rating_after is not None else None)
    return {
        "first": end.first, "solved": end.solved,
        "rating": round(end.rating_after) if end.rating_after is not None else None,
        "delta": delta,
        "streak": ({"current": end.streak.current, "best": end.streak.best}
                   if end.streak is not None else None),
        "themes": theme_labels(puzzle.themes),
    }


def _ended(request: HttpRequest, puzzle: Puzzle, solved: bool) -> dict[str, Any]:
    guest = _guest(request)
    end = services.puzzle_play_end(puzzle_id=puzzle.pk, user=_user(request), guest=guest,
                                   solved=solved)
    if guest is not None:
        guest.save(request.session)
    return _end_data(end, puzzle)


@require_POST
def move(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """A move of a play: the body is ``{"moves": "AC 7H"}``, the player's moves so far, the
    new one last. The answer says right, solved or wrong (with the right move), the board's
    states the move brings (the defender's reply after a right one; the right move played
    instead of a wrong one), and, at the end, the attempt as recorded."""
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
    if puzzle is None:
        return _refused("not_found", _("There is no such puzzle."), status=404)
    form = _moves_form(request)
    if form is None or not form.is_valid() or not form.cleaned_data["moves"]:
        return _refused("bad_message", _("Send the moves played so far."))
    try:
        progress = puzzle_follow(tpn=puzzle.tpn, solution=puzzle.solution,
                                 moves=form.cleaned_data["moves"])
    except PuzzleMoveError as error:
        detail = {"illegal_move": _("That move is not allowed."),
                  "puzzle_over": _("The puzzle is over.")}.get(error.code,
                                                               _("That is not a move."))
        return _refused(error.code, detail)
    end = (_ended(request, puzzle, progress.outcome == "solved")
           if progress.outcome != "playing" else None)
    return JsonResponse({
        "outcome": progress.outcome, "wrong": progress.wrong, "correct": progress.correct,
        "states": puzzle_board_states(puzzle_id=puzzle.pk, progress=progress,
                                      first=progress.new_from + 1),
        "end": end,
    })


@require_POST
def solution(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """The whole solution, every position of it. Asked for before the end, it ends the
    play as a miss (as giving up); after the end it changes nothing."""
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
    if puzzle is None:
        return _refused("not_found", _("There is no such puzzle."), status=404)
    progress = puzzle_line(tpn=puzzle.tpn, solution=puzzle.solution)
    return JsonResponse({
        "states": puzzle_board_states(puzzle_id=puzzle.pk, progress=progress, first=0,
                                      ended=True),
        "end": _ended(request, puzzle, False),
    })


def puzzle_labels() -> dict[str, Any]:
    """The words of the puzzle page's script (the board's own come with them)."""
    return {
        "findMove": _("Find the only winning move."),
        "right": _("Right! Now the defender replies."),
        "rightAgain": _("Right! Find the next move."),
        "solved": _("Solved!"),
        "failed": _("Puzzle failed."),
        # Translators: the script puts the moves (card symbols) in place of {move} and
        # {correct}.
        "wrong": _("{move} does not win. The winning move was {correct}."),
        "rating": _("Your puzzle rating: {rating} ({delta})"),
        "notRatedAgain": _("You had played this puzzle before: it is not rated again."),
        "guest": _("Log in to have your puzzles rated."),
        "streakNext": _("Streak: {current} in a row. Next puzzle!"),
        "streakOver": _("The streak is over. Best streak: {best}."),
        # Translators: stepping through a puzzle's solution: the position shown.
        "solutionAt": _("Solution: move {ply} of {total}"),
        "solutionStart": _("Solution: the starting position"),
        "errorGeneric": _("That did not work. Try again."),
    }
