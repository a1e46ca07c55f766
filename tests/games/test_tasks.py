"""The Celery tasks of play, run in this process: each does nothing once its match moved on."""

from __future__ import annotations

from datetime import timedelta

from games import services, tasks
from games.models import Match, Move, Status, TerminationReason
from games.services import Player
from tests.games.conftest import T0


def ai_duel(alice, **options) -> Match:
    # Dealer 1: seat 0, the AI, leads.
    return services.match_create(
        players=[Player(ai_level=1), Player(user=alice)], seed=11, dealer=1, trumps="SH",
        now=T0, **options,
    )


def test_the_ai_task_plays_one_legal_move_and_is_idempotent(alice):
    match = ai_duel(alice)

    played = tasks.ai_move(match.pk, 0)
    again = tasks.ai_move(match.pk, 0)

    match = Match.objects.get(pk=match.pk)
    assert played is not None
    assert again is None
    assert match.ply == 1
    assert list(Move.objects.filter(match=match).values_list("seat", "text")) == [(0, played)]


def test_an_ai_task_for_a_stale_ply_does_nothing(alice):
    match = ai_duel(alice)
    tasks.ai_move(match.pk, 0)
    before = Match.objects.get(pk=match.pk)

    assert tasks.ai_move(match.pk, 5) is None
    assert tasks.ai_move(match.pk, 1) is None  # the human is to move at ply 1

    after = Match.objects.get(pk=match.pk)
    assert (after.ply, after.version, after.position_tpn) == (
        before.ply, before.version, before.position_tpn)


def test_an_ai_task_for_a_finished_match_does_nothing(alice):
    match = ai_duel(alice)
    services.match_abort(match_id=match.pk, seat=1)

    assert tasks.ai_move(match.pk, 0) is None
    assert not Move.objects.filter(match=match).exists()


def test_tasks_for_a_missing_match_do_nothing(db):
    assert tasks.ai_move(10**9, 0) is None
    tasks.match_flag(10**9, 0)
    tasks.trump_timeout(10**9, 0)


def test_the_flag_task_for_a_stale_ply_does_nothing_and_for_the_current_one_flags(alice, bob):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], trumps="SH", dealer=1,
        clock_initial=60, now=T0,
    )

    tasks.match_flag(match.pk, 7)
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING

    tasks.match_flag(match.pk, 0)  # real time is long past T0 + 60 s
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.TIMEOUT)


def test_the_ai_thinks_within_its_level_and_a_share_of_its_clock():
    from games.ai import STRONGEST, level_budget

    # Untimed, or plenty of time: the level's own budget.
    assert tasks.ai_movetime(level=1, clock_ms=None, increment=0) is None
    assert tasks.ai_movetime(level=STRONGEST, clock_ms=600_000, increment=5) is None
    # Short of time: a small share of what is left.
    short = tasks.ai_movetime(level=STRONGEST, clock_ms=5_000, increment=0)
    assert short is not None
    assert short < level_budget(STRONGEST)
    assert tasks.ai_movetime(level=STRONGEST, clock_ms=1, increment=0) == tasks.AI_MIN_MOVETIME


def test_a_late_ai_gets_its_task_sent_again(alice, monkeypatch):
    sent = []
    monkeypatch.setattr(tasks, "enqueue_ai_move", lambda **kw: sent.append(kw))
    match = ai_duel(alice)  # the AI to move since T0
    stall = services.ai_stall_seconds()

    assert not services.match_nudge_ai(match_id=match.pk, now=T0 + timedelta(seconds=stall - 1))
    assert services.match_nudge_ai(match_id=match.pk, now=T0 + timedelta(seconds=stall))
    assert sent == [{"match_id": match.pk, "ply": 0}]

    tasks.ai_move(match.pk, 0)  # the AI moves: now the human is to move, nothing to nudge
    assert not services.match_nudge_ai(match_id=match.pk, now=T0 + timedelta(days=1))


def test_a_sync_after_a_lost_flag_task_decides_the_flag(alice, bob):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], trumps="SH", dealer=1,
        clock_initial=60, now=T0,
    )
    services.match_nudge_ai(match_id=match.pk, now=T0 + timedelta(seconds=59))
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING

    services.match_nudge_ai(match_id=match.pk, now=T0 + timedelta(seconds=60))
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.TIMEOUT)
