"""The moments of play that other parts of the site act on (the notifications), sent as Celery
tasks once the change that made them commits. Play tells the other parts of the site what
happened only through these: it imports none of them.

The contract, for a part that subscribes (it registers a Celery task under the name below; the
arguments are plain JSON values, the instants ISO 8601 strings in UTC):

- `turn_started`, task `notify.correspondence_turn`, arguments (match id, user id, ply, due
  as ISO or None): it has become the turn of a user's seat in a correspondence game, to
  choose a trump or to move (the first turn of a new game too).
- `time_running_low`, task `notify.correspondence_reminder`, arguments (match id, user id,
  ply, due as ISO): a quarter of the time per move is left to the user to act in a timed
  correspondence game (once per turn).
- `match_finished`, tasks `notify.match_finished` and `tournaments.match_finished`, argument
  (match id): any match has ended (a result or an abort); the match row has the result, its
  seats who won.
- `rematch_offered`, task `notify.rematch_offered`, arguments (match id, seat): the person at
  `seat` offered the others a rematch of the match (which is over).
- `draw_declined`, task `notify.draw_declined`, arguments (match id, version, offerer seat,
  decliner seat): a player declined the draw another offered; `version` is the match's
  version when it was declined (each decline is a moment of its own).
- `match_seen`, task `notify.match_seen`, arguments (match id, user id): the user has the
  match's page in view and focused: they see what happens in it.

Each is sent by the service that made the moment, in its transaction, through
`infra.tasks.task_send_on_commit`: a rolled-back change sends nothing, and the task
reads the committed rows. `ply` (the number of moves played, `Match.ply`) tells a late or
repeated task whether the turn it was sent for is still the current one, and a subscriber
keeps its effects idempotent with it (one notification per match, ply and kind; a task may
arrive twice, as the broker delivers at least once). The trump choices and the first move
are all at ply 0: `due` tells those turns apart, and the match's status (choosing trumps,
then playing) tells a player's trump choice from their first move.

With no subscriber registered under a name (a site run without the notifications) the event is
not sent: nothing else depends on it.
"""

from __future__ import annotations

from datetime import datetime

from infra.tasks import task_registered, task_send_on_commit

TURN_TASK = "notify.correspondence_turn"
REMINDER_TASK = "notify.correspondence_reminder"
FINISHED_TASK = "notify.match_finished"
REMATCH_TASK = "notify.rematch_offered"
DRAW_DECLINED_TASK = "notify.draw_declined"
SEEN_TASK = "notify.match_seen"
# The arenas score a finished game and pair its players again (`games.tournaments.tasks`).
TOURNAMENT_FINISHED_TASK = "tournaments.match_finished"


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _send(name: str, *args: object) -> None:
    if task_registered(name):
        task_send_on_commit(name, *args)


def turn_started(*, match_id: int, user_id: int, ply: int, due_at: datetime | None) -> None:
    """It is now `user_id`'s turn in correspondence match `match_id` at `ply`; they must act
    by `due_at` (None: an untimed game)."""
    _send(TURN_TASK, match_id, user_id, ply, _iso(due_at))


def time_running_low(*, match_id: int, user_id: int, ply: int, due_at: datetime) -> None:
    """A quarter of the time per move is left to `user_id`, to act at `ply` by `due_at`."""
    _send(REMINDER_TASK, match_id, user_id, ply, _iso(due_at))


def match_finished(*, match_id: int) -> None:
    """Match `match_id` has ended (finished or aborted)."""
    _send(FINISHED_TASK, match_id)
    _send(TOURNAMENT_FINISHED_TASK, match_id)


def rematch_offered(*, match_id: int, seat: int) -> None:
    """The person at `seat` of match `match_id` offered its other players a rematch."""
    _send(REMATCH_TASK, match_id, seat)


def draw_declined(*, match_id: int, version: int, offerer: int, decliner: int) -> None:
    """The seat `decliner` declined the draw `offerer` offered, at the match's `version`."""
    _send(DRAW_DECLINED_TASK, match_id, version, offerer, decliner)


def match_seen(*, match_id: int, user_id: int) -> None:
    """`user_id` has the page of match `match_id` in view and focused."""
    _send(SEEN_TASK, match_id, user_id)
