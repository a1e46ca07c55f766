"""A person who leaves a table of 3-4 does not spoil it for the others: the AI takes their
seat over (docs/play.md, "Leaving a table").

When the person to move has been gone (no game socket) for `GAMES_TABLE_ABSENCE_SECONDS`, or
at an untimed table has not moved for `GAMES_TABLE_MOVE_LIMIT_SECONDS` of their turn, or at a
correspondence table (where absence counts for nothing) has let their days per move run out
(`checks.takeover_at`), the deadline watch passes the seat to the AI at the level that plays
about like them (`games.ai.level_for_rating` of their table rating, at least level 3) for the
rest of the game. The seat keeps its person, who counts as having resigned: their result is a
loss and a rated table rates them last (`finishing`). In a duel there is no takeover: the
other player claims the game (`endings.match_claim_victory`).
"""

from __future__ import annotations

import logging
from datetime import datetime

from games.play import checks, errors
from games.play.errors import PlayError
from games.play.models import Match, Seat
from games.play.services.core import change_commit

logger = logging.getLogger(__name__)


def stand_in_level(seat: Seat) -> int:
    """The AI level that takes this person's seat over: the level that plays about like
    their table rating (a guest, or an account never rated at tables, as a newcomer)."""
    from accounts.models import RatingMode
    from accounts.selectors import rating_get
    from accounts.table_ratings import DISPLAY_CENTRE
    from games.ai import level_for_rating

    rating = DISPLAY_CENTRE
    if seat.user is not None:
        rating = float(rating_get(user=seat.user, mode=RatingMode.TABLE).rating)
    return level_for_rating(rating)


def takeover_if_due(match: Match, seats: list[Seat], now: datetime) -> bool:
    """Under the match's lock: if the person to move is due to be replaced, give the seat to
    the AI and commit the change (the AI's task follows on commit). Returns whether it did."""
    at = checks.takeover_at(match, seats)
    if at is None or now < at:
        return False
    assert match.to_move is not None
    seat = seats[match.to_move]
    seat.ai_level = stand_in_level(seat)
    seat.taken_over_ply = match.ply
    seat.save(update_fields=["ai_level", "taken_over_ply"])
    if match.correspondence:
        # The person's days ran out: the AI's turn is a new one, on a full clock.
        match.turn_started_at = now
    logger.info("match %s: seat %s taken over by the AI (level %s) at ply %s",
                match.pk, seat.index, seat.ai_level, match.ply)
    # The turn passes from a person to the AI: its task is sent and its deadline written.
    change_commit(match, seats, now=now)
    return True


def person_check(seat: Seat) -> None:
    """Refuse a person's act for a seat the AI has taken over: its person has left the game
    (they still watch it from their seat)."""
    if seat.taken_over:
        raise PlayError(errors.NOT_ALLOWED, "the AI plays your seat since you left the table")
