"""The one door for every change to a match (HackSoft style: keyword-only, typed).

Every service runs in one transaction with the match row locked (`select_for_update`), checks
what the actor may do, writes, and only on commit broadcasts the new version to the group
`match-<id>` and sends what follows (the AI's move). A change of turn also writes the match's
next deadline (`Match.due_at`: the flag, the trump-choice timeout, a late AI), which the
deadline watch enforces (`deadlines`).
A refusal raises `games.play.errors.PlayError` with a stable code and changes nothing.

Time is injected: every service takes `now` (default `timezone.now()`), so the tests of clocks,
claims and timeouts pass instants instead of sleeping. Clocks are the server's: the mover's
remaining time is their stored `clock_ms` minus the time since `turn_started_at`.

Services that act for a seat take its index; the consumer or view maps a user or guest to it
(`games.play.selectors.seat_of`).
"""

from games.play.services.base import (
    TIME_CONTROLS,
    Player,
    ai_stall_seconds,
    broadcast,
    claim_after_seconds,
    due_at,
    group_name,
    match_game_load,
    match_moves,
    presence_lease_seconds,
    trump_choice_seconds,
)
from games.play.services.clocks import flag_at, remaining_ms
from games.play.services.deadlines import deadlines_enforce, match_deadline_enforce
from games.play.services.endings import (
    can_abort,
    match_abort,
    match_claim_victory,
    match_draw_accept,
    match_draw_decline,
    match_draw_offer,
    match_resign,
)
from games.play.services.play import (
    match_choose_trump,
    match_create,
    move_apply,
)
from games.play.services.presence import (
    absent_since,
    claim_available_at,
    is_present,
    seat_presence_change,
    seat_presence_renew,
)
from games.play.services.rematch import match_rematch, next_dealer

__all__ = [
    "TIME_CONTROLS",
    "Player",
    "absent_since",
    "ai_stall_seconds",
    "broadcast",
    "can_abort",
    "claim_after_seconds",
    "claim_available_at",
    "deadlines_enforce",
    "due_at",
    "flag_at",
    "group_name",
    "is_present",
    "match_abort",
    "match_choose_trump",
    "match_claim_victory",
    "match_create",
    "match_deadline_enforce",
    "match_draw_accept",
    "match_draw_decline",
    "match_draw_offer",
    "match_game_load",
    "match_moves",
    "match_rematch",
    "match_resign",
    "move_apply",
    "next_dealer",
    "presence_lease_seconds",
    "remaining_ms",
    "seat_presence_change",
    "seat_presence_renew",
    "trump_choice_seconds",
]
