"""The one door for every change to a match (HackSoft style: keyword-only, typed).

Every service runs in one transaction with the match row locked (`select_for_update`), checks
what the actor may do, writes, and returns a `Change`: the match as it now is and its
snapshot. Only on commit is the snapshot broadcast to the group `match-<id>` and what follows
sent (the AI's move). A change of turn also writes the match's next deadline (`Match.due_at`:
the flag, the trump-choice timeout, a late AI), which the deadline watch enforces
(`deadlines`). A refusal raises `games.play.errors.PlayError` with a stable code and changes
nothing.

Time is injected: every service takes `now` (default `timezone.now()`), so the tests of clocks,
claims and timeouts pass instants instead of sleeping. Clocks are the server's
(`games.play.checks`).

Services that act for a seat take its index; the consumer or view maps a user or guest to it
(`games.play.selectors.seat_of`).

Modules: `play` (create, trumps, `move_apply`), `deadlines` (what the clock does when nobody
acts), `endings` (resign, abort, draws, claim), `rematch`, `presence`; `core` and `finishing`
are this package's own (the lock, the change and its broadcast; the end of a match).
"""

from games.play.services.berserk import seat_berserk
from games.play.services.core import Change, Player, ai_move_send, group_name
from games.play.services.deadlines import deadlines_enforce, match_deadline_enforce
from games.play.services.endings import (
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
    seat_focus_change,
    seat_presence_change,
    seat_presence_renew,
)
from games.play.services.rematch import match_rematch

__all__ = [
    "Change",
    "Player",
    "ai_move_send",
    "deadlines_enforce",
    "group_name",
    "match_abort",
    "match_choose_trump",
    "match_claim_victory",
    "match_create",
    "match_deadline_enforce",
    "match_draw_accept",
    "match_draw_decline",
    "match_draw_offer",
    "match_rematch",
    "match_resign",
    "move_apply",
    "seat_berserk",
    "seat_focus_change",
    "seat_presence_change",
    "seat_presence_renew",
]
