"""The game record (our PGN, ``games.rules.record``) out of a stored match and back in.

Export writes the rules engine's record of the match with the site's headers before the
game's own::

    [Event "Rated game"]            or "Casual game"
    [Site "https://.../game/12/replay"]   when the caller knows its address
    [Date "2026.11.30"]             the day the game started (UTC)
    [Seat0 "alice"] [Seat1 "AI level 3"] ...
    [TimeControl "180+2"]           initial+increment in seconds, "-" when untimed
    [MoveTimes "1200 3400 ..."]     the milliseconds each move took, in ply order
    [SiteTermination "abandonment"] only for the site's own end: a player left the game
    [TakenOver "2:17"]              at a table: the AI played seat 2 from ply 17 on (its
                                    person left; docs/play.md, "Leaving a table")

From ``TimeControl`` and ``MoveTimes`` every clock at every ply can be rebuilt exactly (the
server's rule: the mover's clock loses the time spent and gains the increment), so an
imported record replays with its clocks. A player who abandoned the game is recorded as
having resigned (``SiteTermination "abandonment"``). Records exported before the rules
engine knew draws by agreement read ``Result "ongoing"`` with ``SiteTermination
"agreement"``; they still import as drawn.

Import is ``games.rules.parse_record``; its ``RecordError`` names the line and the fault.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC

from django.conf import settings

from games.ai.analysis import ANALYSIS_VERSION, Analysis, analyse
from games.play.models import Match, TerminationReason
from games.play.selectors import match_game, match_seats
from games.replays.selectors import analysis_key, match_moves_get
from games.rules import Game, GameRecord, RecordError, format_record, parse_record
from infra.tasks import task_send_on_commit

logger = logging.getLogger(__name__)

ANALYSE_TASK = "replays.analyse_match"

MAX_RECORD_BYTES = 200_000
"""Larger than any legal game (2000 plies and their times) with room to spare."""

SITE_TERMINATIONS = (TerminationReason.ABANDONMENT,)


class RecordNotAvailableError(ValueError):
    """The match has no record yet: its trumps are still being chosen."""


def record_export(*, match: Match, site_url: str = "") -> str:
    """The game record of a match (finished or not) as text."""
    moves = match_moves_get(match=match)
    game = match_game(match=match, moves=[move.text for move in moves])
    if game is None:
        raise RecordNotAvailableError(f"match {match.pk} has not been dealt yet")
    seats = match_seats(match=match)
    started = match.started_at or match.created_at
    headers: dict[str, str] = {
        "Event": "Rated game" if match.rated else "Casual game",
    }
    if site_url:
        headers["Site"] = site_url
    headers["Date"] = started.astimezone(UTC).strftime("%Y.%m.%d")
    for seat in seats:
        headers[f"Seat{seat.index}"] = seat.display_name
    headers["TimeControl"] = (
        f"{match.clock_initial}+{match.clock_increment}" if match.timed else "-"
    )
    if moves:
        headers["MoveTimes"] = " ".join(str(move.time_spent_ms) for move in moves)
    if match.is_over and match.termination in SITE_TERMINATIONS:
        headers["SiteTermination"] = match.termination
    taken = [f"{seat.index}:{seat.taken_over_ply}" for seat in seats if seat.taken_over]
    if taken:
        headers["TakenOver"] = " ".join(taken)
    return format_record(game, headers)


def record_import(*, text: str) -> GameRecord:
    """Read a record; raises ``RecordError`` (with ``line``) naming the line and the fault."""
    if len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
        raise RecordError(1, f"the record is larger than {MAX_RECORD_BYTES // 1000} kB")
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not text.strip():
        raise RecordError(1, "the record is empty")
    return parse_record(text)


# --- the AI's analysis of a finished duel -----------------------------------------------------
#
# `games.ai.analyse` evaluates every position of a duel (exact where proven, the search's
# estimate elsewhere) and judges each move by the drop of its mover's evaluation. It is a
# search of up to a minute: it runs in a Celery task, never in a web request. Its result is
# a pure function of the game and of the analysis's version (its budget is in search nodes,
# not seconds), so it is kept in the cache (Redis in production) with no expiry rather than
# in a table: if it is ever evicted, the next view asks for it again, and the task makes the
# same result again.

ANALYSIS_PENDING_SECONDS = 15 * 60
"""How long a request for the analysis stands before another view may ask again."""
ANALYSIS_UNAVAILABLE_SECONDS = 60 * 60
"""How long to remember that the AI could not analyse (not installed, or it failed)."""


def analysable(*, match: Match) -> bool:
    """Only finished duels: with 3-4 players the hands are hidden, there is no value."""
    return match.n_players == 2 and match.is_over and match.ply > 0


def analysis_request(*, match: Match) -> str:
    """Ask for the analysis of a finished duel unless it is done or already asked for;
    returns its status: ``done``, ``pending``, ``unavailable`` or ``none`` (not a duel)."""
    from django.core.cache import cache

    if not analysable(match=match):
        return "none"
    stored = cache.get(analysis_key(match.pk))
    if stored is not None:
        return str(stored["status"])
    # `add` is atomic: of many first viewers, one enqueues the task.
    if cache.add(analysis_key(match.pk), {"status": "pending"}, ANALYSIS_PENDING_SECONDS):
        task_send_on_commit(ANALYSE_TASK, match.pk)
    return "pending"


def _analyse_at_site_budget(game: Game) -> Analysis:
    """The AI's analysis of ``game`` at the site's budget (``REPLAYS_ANALYSIS_NODES``)."""
    return analyse(game, total_nodes=settings.REPLAYS_ANALYSIS_NODES)


def analysis_run(
    *, match_id: int, analyse: Callable[[Game], Analysis] = _analyse_at_site_budget
) -> dict[str, object]:
    """Analyse a finished duel with `analyse` (the AI's analysis at the site's budget) and
    store the result (the Celery task's body). Running it again stores the same result."""
    from django.core.cache import cache

    match = Match.objects.filter(pk=match_id).first()
    if match is None or not analysable(match=match):
        return {"status": "none"}
    game = match_game(match=match)
    assert game is not None
    try:
        analysis = analyse(game)
    except Exception:
        # A search that failed or ran out of time (Celery's soft limit): say so for a while
        # rather than asking again on every view.
        logger.exception("the analysis of match %s failed", match_id)
        cache.set(analysis_key(match_id), {"status": "unavailable"},
                  ANALYSIS_UNAVAILABLE_SECONDS)
        raise
    result: dict[str, object] = {"status": "done", **analysis_view(analysis)}
    cache.set(analysis_key(match_id), result, None)
    return result


def analysis_view(analysis: Analysis) -> dict[str, object]:
    """The analysis as the replay shows it (JSON):

    - ``values``: seat 0's expected score in [-1, 1] at every ply (0 = the deal), rounded to
      3 places; ``exact``: whether each is proven (else the search's estimate);
    - ``marks`` by ply, the number of moves played as text (mark "7" is on the 7th move;
      ``Mistake.ply`` counts from 0): ``kind`` (inaccuracy, mistake, blunder), ``exact``, the
      mover's values ``before`` and ``after`` the move on the same scale, the ``best`` moves;
    - ``version`` of the analysis and ``nodes`` searched per position."""
    marks: dict[str, dict[str, object]] = {}
    for mistake in analysis.mistakes:
        marks[str(mistake.ply + 1)] = {
            "move": str(mistake.move),
            "kind": mistake.judgement.value,
            "exact": mistake.exact,
            "before": round(mistake.value_before, 3),
            "after": round(mistake.value_after, 3),
            "best": [str(move) for move in mistake.best_moves],
        }
    return {
        "version": ANALYSIS_VERSION,
        "nodes": analysis.nodes_per_position,
        "values": [evaluation.value for evaluation in analysis.evaluations],
        "exact": [evaluation.exact for evaluation in analysis.evaluations],
        "marks": marks,
    }
