"""The moments of correspondence play (`games.play.events`) reach the notifications through a
real Celery worker: each turn is told to the player to move, by e-mail too (their default),
and the end of the game to a player away from its page."""

from __future__ import annotations

import time

import pytest

from games.play import services as play
from games.play.models import Seat
from games.play.services import Player
from games.play.time_control import TimeControl
from notifications.models import Kind, Notification
from tests.support.matches import moves_played

pytestmark = pytest.mark.django_db(transaction=True)


def told(timeout: float = 60, **lookup) -> Notification | None:
    """The notification matching `lookup` once the worker has made it (polled: another
    process makes it, and nothing tells this one when)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = Notification.objects.filter(**lookup).first()
        if found is not None:
            return found
        time.sleep(0.1)
    return None


def test_each_correspondence_turn_and_the_end_are_told(make_user, worker_outbox):
    alice, bob = make_user("corralice"), make_user("corrbob")
    match = play.match_create(players=[Player(user=alice), Player(user=bob)], seed=42, dealer=1,
                              trumps="SH", time_control=TimeControl.parse("2d"))
    match.refresh_from_db()
    first = Seat.objects.get(match=match, index=match.to_move).user
    turn = told(user=first, kind=Kind.TURN, match=match)
    assert turn is not None
    assert turn.key == f"turn:{match.pk}:{match.ply}"

    match = moves_played(match, 1)
    second = Seat.objects.get(match=match, index=match.to_move).user
    assert told(user=second, kind=Kind.TURN, key=f"turn:{match.pk}:{match.ply}") is not None
    mails = worker_outbox.wait_for(f"{second.username}@example.com", 1)
    assert len(mails) == 1
    assert first.username in mails[0]["Subject"]

    play.match_resign(match_id=match.pk, seat=match.to_move)
    ended = told(kind=Kind.FINISHED, match=match)
    assert ended is not None
    assert Notification.objects.filter(kind=Kind.FINISHED, match=match).count() == 2


def test_each_turn_at_a_correspondence_table_is_told_to_its_player(make_user, worker_outbox):
    people = [make_user(f"corrtable{i}") for i in range(3)]
    match = play.match_create(players=[Player(user=u) for u in people], seed=7, dealer=0,
                              trumps="SHD", time_control=TimeControl.parse("1d"))
    match.refresh_from_db()
    first = Seat.objects.get(match=match, index=match.to_move).user
    turn = told(user=first, kind=Kind.TURN, match=match)
    assert turn is not None
    mails = worker_outbox.wait_for(f"{first.username}@example.com", 1)
    assert len(mails) == 1
    # Every other player of the table is named.
    assert all(u.username in mails[0]["Subject"] for u in people if u != first)

    match = moves_played(match, 1)
    second = Seat.objects.get(match=match, index=match.to_move).user
    assert told(user=second, kind=Kind.TURN, key=f"turn:{match.pk}:{match.ply}") is not None
    assert not Notification.objects.filter(kind=Kind.TURN, match=match).exclude(
        user__in=[first, second]).exists()
