"""The Celery tasks of play, run in this process: each does nothing once its match moved on."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from games.play import services, tasks
from games.play.models import Match, Move, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
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


def test_the_ai_task_and_the_deadlines_of_a_missing_match_do_nothing(db):
    assert tasks.ai_move(10**9, 0) is None
    services.match_deadline_enforce(match_id=10**9)


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


def test_a_late_ai_gets_its_task_sent_again(alice, sent_tasks,
                                            django_capture_on_commit_callbacks):
    match = ai_duel(alice)  # the AI to move since T0
    stall = settings.GAMES_AI_STALL_SECONDS

    def watch_at(seconds: float) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.deadlines_enforce(now=T0 + timedelta(seconds=seconds))

    assert Match.objects.get(pk=match.pk).due_at == T0 + timedelta(seconds=stall)
    watch_at(stall - 1)
    assert sent_tasks() == []
    watch_at(stall)
    assert sent_tasks() == [("games.ai_move", (match.pk, 0))]
    # Still late a stall later (that task was lost too): sent once more, not before.
    watch_at(2 * stall - 1)
    watch_at(2 * stall)
    assert sent_tasks() == [("games.ai_move", (match.pk, 0))] * 2

    tasks.ai_move(match.pk, 0)  # the AI moves: now the (untimed) human is to move
    moved = Match.objects.get(pk=match.pk)
    # What is due now is the person's silence (the game's end after a day), not the AI.
    assert moved.due_at == moved.turn_started_at + timedelta(
        seconds=settings.GAMES_AI_GAME_SILENCE_SECONDS)
    watch_at(86_400)
    assert len(sent_tasks()) == 2


def test_a_sync_decides_its_own_match_s_flag_when_it_is_due(alice, bob):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], trumps="SH", dealer=1,
        time_control=TimeControl(60), now=T0,
    )
    services.match_deadline_enforce(match_id=match.pk, now=T0 + timedelta(seconds=59))
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING

    services.match_deadline_enforce(match_id=match.pk, now=T0 + timedelta(seconds=60))
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.TIMEOUT)
