"""The game record (our PGN, ``games.rules.record``) out of a stored match and back in.

Export writes the rules engine's record of the match with the site's headers before the
game's own::

    [Event "Rated game"]            or "Casual game"
    [Site "https://.../game/12/replay"]   when the caller knows its address
    [Date "2026.11.30"]             the day the game started (UTC)
    [Seat0 "alice"] [Seat1 "AI level 3"] ...
    [TimeControl "180+2"]           initial+increment in seconds, "-" when untimed
    [MoveTimes "1200 3400 ..."]     the milliseconds each move took, in ply order
    [SiteTermination "agreement"]   only for the site's own ends (abandonment, agreement)

From ``TimeControl`` and ``MoveTimes`` every clock at every ply can be rebuilt exactly (the
server's rule: the mover's clock loses the time spent and gains the increment), so an
imported record replays with its clocks. A player who abandoned the game is recorded as
having resigned (``SiteTermination "abandonment"``); a draw by agreement has no rule in the
engine, so its record reads ``Result "ongoing"`` with ``SiteTermination "agreement"``.

Import is ``games.rules.parse_record``; its ``RecordError`` names the line and the fault.
"""

from __future__ import annotations

from datetime import UTC

from games.models import Match, TerminationReason
from games.replays.selectors import match_game_build, match_moves_get, match_seats_get
from games.rules import GameRecord, RecordError, format_record, parse_record

MAX_RECORD_BYTES = 200_000
"""Larger than any legal game (2000 plies and their times) with room to spare."""

SITE_TERMINATIONS = (TerminationReason.ABANDONMENT, TerminationReason.AGREEMENT)


class RecordNotAvailableError(ValueError):
    """The match has no record yet: its trumps are still being chosen."""


def record_export(*, match: Match, site_url: str = "") -> str:
    """The game record of a match (finished or not) as text."""
    moves = match_moves_get(match=match)
    game = match_game_build(match=match, moves=moves)
    if game is None:
        raise RecordNotAvailableError(f"match {match.pk} has not been dealt yet")
    seats = match_seats_get(match=match)
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
        f"{match.clock_initial}+{match.clock_increment}" if match.clock_initial else "-"
    )
    if moves:
        headers["MoveTimes"] = " ".join(str(move.time_spent_ms) for move in moves)
    if match.is_over and match.termination in SITE_TERMINATIONS:
        headers["SiteTermination"] = match.termination
    return format_record(game, headers)


def record_import(*, text: str) -> GameRecord:
    """Read a record; raises ``RecordError`` (with ``line``) naming the line and the fault."""
    if len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
        raise RecordError(1, f"the record is larger than {MAX_RECORD_BYTES // 1000} kB")
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not text.strip():
        raise RecordError(1, "the record is empty")
    return parse_record(text)
