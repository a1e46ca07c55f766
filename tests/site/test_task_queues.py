"""The slow tasks have a queue of their own (`CELERY_SLOW_QUEUE`), and so have the tasks that
wait on servers outside the site, e-mail and Web Push (`CELERY_OUTBOUND_QUEUE`), so that a
worker busy with an analysis or a silent push service never holds up an AI seat: where each
task is routed, the rule that keeps a new long task off the default queue, the queues' names,
and real workers on real Redis that consume one queue each, as production runs them."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
import time
import urllib.request

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache

from games.play import services
from games.play.models import Match
from games.play.services import Player
from games.replays.selectors import analysis_get, analysis_key
from tests.games.replays.conftest import play_match
from tests.load.client import MatchClient
from tests.load.sessions import session_cookie
from tests.support.broker import broker_empty
from tests.support.embedded import embedded_env
from tests.support.processes import REPO_ROOT, start_celery_worker, wait_for_worker
from yourtrumps_site.celery import app

# Every task of the site, by the queue it must go to: a new task fails the first test until
# it is placed here. Fast: what a player waits on within a second, or takes milliseconds.
# Outbound: what waits on another server's answer.
FAST_TASKS = {
    "games.ai_move", "games.ai_draw_answer", "yourtrumps.ping", "notify.match_finished",
    "notify.correspondence_turn", "notify.correspondence_reminder", "notify.rematch_offered",
    "notify.draw_declined", "notify.match_seen",
    "tournaments.match_finished",
}
OUTBOUND_TASKS = {"notify.email", "notify.push"}
SLOW_TASKS = {"replays.analyse_match", "puzzles.from_match", "notify.prune",
              "matchmaking.close_stale_tables", "tournaments.schedule"}

# Seat 0 (the person) leads; the AI at seat 1 answers.
START = "SH 7C9DJSQD/6H8CKDTS - 0 -"


def site_tasks() -> dict[str, object]:
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


def queue_of(name: str) -> str:
    """The queue Celery's router sends the task `name` to."""
    return str(app.amqp.router.route({}, name)["queue"].name)


def test_each_task_goes_to_its_queue():
    default, slow = settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_SLOW_QUEUE
    outbound = settings.CELERY_OUTBOUND_QUEUE

    assert set(site_tasks()) == FAST_TASKS | SLOW_TASKS | OUTBOUND_TASKS, (
        "place each new task in a queue")
    assert {name: queue_of(name) for name in FAST_TASKS} == dict.fromkeys(FAST_TASKS, default)
    assert {name: queue_of(name) for name in SLOW_TASKS} == dict.fromkeys(SLOW_TASKS, slow)
    assert {name: queue_of(name) for name in OUTBOUND_TASKS} == dict.fromkeys(
        OUTBOUND_TASKS, outbound)
    assert len({default, slow, outbound}) == 3


def test_a_task_allowed_more_time_than_the_default_goes_to_the_slow_queue():
    """A task given longer limits than the default says it may run long: it must not take a
    process of the workers the AI's moves wait on."""
    hard, soft = app.conf.task_time_limit, app.conf.task_soft_time_limit
    long_tasks = {
        name for name, task in site_tasks().items()
        if (getattr(task, "time_limit", None) or hard) > hard
        or (getattr(task, "soft_time_limit", None) or soft) > soft
    }

    assert {"replays.analyse_match", "puzzles.from_match"} <= long_tasks
    assert {name: queue_of(name) for name in long_tasks} == dict.fromkeys(
        long_tasks, settings.CELERY_SLOW_QUEUE)


def test_the_periodic_tasks_go_to_the_slow_queue():
    """What beat runs works over whole tables, and nobody waits on it."""
    periodic = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    assert periodic
    assert {name: queue_of(name) for name in periodic} == dict.fromkeys(
        periodic, settings.CELERY_SLOW_QUEUE)


def test_the_other_queues_are_named_after_the_default_one_and_eager_mode_still_runs_tasks(
        tmp_path):
    """Parallel runs set `CELERY_QUEUE` apart, and their slow and outbound queues follow. With
    no Redis (the embedded default) nothing is routed: the tasks run eagerly, as before."""
    script = ("from yourtrumps_site.celery import app; from django.conf import settings; "
              "print(settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_SLOW_QUEUE, "
              "settings.CELERY_OUTBOUND_QUEUE, "
              "app.conf.task_always_eager, app.tasks['yourtrumps.ping'].delay().get())")
    env = {key: value for key, value in embedded_env(tmp_path).items()
           if key not in ("CELERY_QUEUE", "CELERY_SLOW_QUEUE", "CELERY_OUTBOUND_QUEUE")}

    def run(**overrides: str) -> str:
        result = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, timeout=120,
                                env={**env, **overrides}, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert run() == "celery celery-slow celery-outbound True pong"
    assert run(CELERY_QUEUE="run-7") == "run-7 run-7-slow run-7-outbound True pong"
    assert run(CELERY_QUEUE="run-7", CELERY_SLOW_QUEUE="long",
               CELERY_OUTBOUND_QUEUE="out") == "run-7 long out True pong"


def active_queues(node: str) -> list[str]:
    """The queues the worker `node` consumes, as it says itself."""
    for _attempt in range(12):  # a solo worker answers between tasks
        answer = app.control.inspect(destination=[node], timeout=5).active_queues()
        if answer:
            return sorted(queue["name"] for queue in answer[node])
    raise AssertionError(f"{node} never said which queues it consumes")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("sockets_settled")
@pytest.mark.slow
def test_the_ai_moves_while_an_analysis_sent_before_waits_for_the_slow_worker(
        start_asgi_server, server_env, process_logs, sent_tasks):
    """A daphne on queues of this test's own sends a replay's analysis and then an AI move.
    A worker of the default queue alone, as production's fast worker, plays the AI's move
    and leaves the analysis waiting on the slow queue, though it was sent first; the slow
    worker, started after, then analyses the game. (`sent_tasks` keeps what this test's own
    process sends, the ends of the games it plays, away from every worker.)"""
    queue = f"queues-{secrets.token_hex(3)}"
    slow_queue = f"{queue}-slow"  # what the settings make of CELERY_QUEUE
    env = {**server_env, "CELERY_QUEUE": queue}
    server = start_asgi_server(CELERY_QUEUE=queue)
    url = str(server.extra["url"])
    users = get_user_model().objects
    duel = play_match([Player(user=users.create_user("ann", password="x-8dj2ks-Q")),
                       Player(user=users.create_user("ben", password="x-8dj2ks-Q"))],
                      moves=16, end="resign")
    cache.delete(analysis_key(duel.pk))
    workers = []
    try:
        # The replay's first view, on the server, asks for the analysis: it waits on the
        # slow queue, and nothing on the default one.
        with urllib.request.urlopen(f"{url}/game/{duel.pk}/replay", timeout=30) as response:
            assert response.status == 200
        assert sent_tasks(queue=slow_queue) == [("replays.analyse_match", (duel.pk,))]
        assert sent_tasks(queue=queue) == []

        fast = start_celery_worker(env, process_logs, name=f"fast-{queue}", queues=[queue])
        workers.append(fast)
        wait_for_worker(fast)
        assert active_queues(str(fast.extra["node"])) == [queue]

        person = users.create_user("cat", password="x-8dj2ks-Q")
        match = services.match_create(players=[Player(user=person), Player(ai_level=1)],
                                      start_tpn=START, dealer=1)
        cookie = session_cookie(person)

        async def move_and_wait_for_the_ai() -> float:
            client = await MatchClient.open(url, match.pk, cookie)
            await client.send({"type": "move", "move": client.state["legal_moves"][0],
                               "ply": 0})
            moved = time.monotonic()
            while client.state["ply"] < 2:
                await client.next("state", timeout=30)
            await client.close()
            return time.monotonic() - moved

        answered_in = asyncio.run(move_and_wait_for_the_ai())
        print(f"\nthe AI answered in {answered_in:.2f} s, the analysis waiting")

        assert Match.objects.get(pk=match.pk).ply == 2
        assert sent_tasks(queue=slow_queue) == [("replays.analyse_match", (duel.pk,))]
        assert analysis_get(match_id=duel.pk) == {"status": "pending"}

        slow = start_celery_worker(env, process_logs, name=f"slow-{queue}",
                                   queues=[slow_queue])
        workers.append(slow)
        wait_for_worker(slow)
        deadline = time.monotonic() + 120
        while (analysis_get(match_id=duel.pk) or {}).get("status") == "pending":
            assert time.monotonic() < deadline, f"no analysis:\n{slow.log_tail()}"
            time.sleep(0.25)

        assert analysis_get(match_id=duel.pk)["status"] == "done"
        assert sent_tasks(queue=slow_queue) == []
        assert fast.alive
        assert slow.alive
    finally:
        for worker in workers:
            worker.stop()
        broker_empty(queue=queue)
        broker_empty(queue=slow_queue)


def test_the_suites_workers_serve_one_queue_each_as_in_production(celery_worker):
    """The suite runs a worker per queue: a test waiting on an AI move never waits behind an
    analysis another test asked for, nor behind a push service that never answers."""
    assert active_queues(str(celery_worker.extra["node"])) == [settings.CELERY_TASK_DEFAULT_QUEUE]
    assert active_queues(str(celery_worker.extra["slow"].extra["node"])) == [
        settings.CELERY_SLOW_QUEUE]
    assert active_queues(str(celery_worker.extra["outbound"].extra["node"])) == [
        settings.CELERY_OUTBOUND_QUEUE]


def test_a_worker_started_without_queues_consumes_both(server_env, process_logs):
    """A worker started without `-Q` takes the slow and outbound tasks too (the load tool's
    one worker)."""
    worker = start_celery_worker(server_env, process_logs, name=f"both-{secrets.token_hex(3)}")
    try:
        wait_for_worker(worker)
        assert active_queues(str(worker.extra["node"])) == sorted(
            [settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_SLOW_QUEUE,
             settings.CELERY_OUTBOUND_QUEUE])
    finally:
        worker.stop()
