"""How long the AI takes to answer a move while forty push endpoints never answer.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/ai_move_with_silent_push.py
    python bench/ai_move_with_silent_push.py --moves 300 --level 3 --push-every 5
    python bench/ai_move_with_silent_push.py --one-worker --moves 30   # push beside the AI

It migrates the database it is given and starts, on queues of its own on that Redis, the
workers of production's topology: one for the default queue (the AI's moves) and one for the
outbound queue (e-mail and Web Push), one process each (`--one-worker`: a single worker on
both, as when push shared the AI's queue). A local server that takes connections and never
answers stands for a push service (the suite's `SilentService`, the one origin the workers
take as a push service: `tests.settings`, `TEST_WEBPUSH_LOCAL_ORIGINS`); eight people
subscribe five browsers each there, 40 endpoints (their failures never drop them here:
`WEBPUSH_MAX_FAILURES` is raised). A person then plays the AI at `--level`, one game after
another, answering at once; every `--push-every` of their moves each of the eight is told
something, which sends eight push tasks to the 40 silent endpoints. Each AI move is timed
from the commit of the person's move to the AI's move in the database (polled every 5 ms).
Prints the AI's p50 / p95 / p99 / max against the level's budget + 300 ms, and how many
pushes were tried meanwhile. What it made is deleted, its queues emptied, at the end.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
QUEUE = f"bench-push-{secrets.token_hex(3)}"
os.environ["CELERY_QUEUE"] = QUEUE
# The suite's settings: they take the silent server's origin as a push service.
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.ai import level_budget  # noqa: E402
from games.play import selectors as play_selectors  # noqa: E402
from games.play import services as play  # noqa: E402
from games.play.models import Match, Status  # noqa: E402
from games.play.services import Player  # noqa: E402
from notifications import services as notify  # noqa: E402
from notifications.management.commands.vapid_keys import vapid_key_pair  # noqa: E402
from notifications.models import Kind, PushSubscription  # noqa: E402
from tests.notifications.push_service import Browser, b64url  # noqa: E402
from tests.support.broker import broker_empty  # noqa: E402
from tests.support.processes import (  # noqa: E402
    database_url,
    start_celery_worker,
    wait_for_worker,
)
from tests.support.silent_service import SilentService  # noqa: E402

PEOPLE, BROWSERS = 8, 5


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ply_of(match_id: int) -> tuple[int, str, int]:
    row = Match.objects.filter(pk=match_id).values_list("ply", "status", "to_move").get()
    return int(row[0]), str(row[1]), -1 if row[2] is None else int(row[2])


def wait_for_ai(match_id: int, ply: int, timeout: float = 120) -> float:
    """Seconds until the match is past `ply` (the AI moved) or over."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        now_ply, status, _to_move = ply_of(match_id)
        if now_ply > ply or status != Status.PLAYING:
            return time.monotonic() - start
        time.sleep(0.005)
    raise RuntimeError(f"the AI did not answer in {timeout} s (match {match_id}, ply {ply})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="AI moves to time")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--push-every", type=int, default=5,
                        help="tell the eight people something every this many moves")
    parser.add_argument("--one-worker", action="store_true",
                        help="one worker on the default and outbound queues")
    args = parser.parse_args()
    if not settings.REDIS_URL:
        sys.exit("REDIS_URL is needed: the workers take their tasks from Redis.")

    call_command("migrate", verbosity=0)
    logs = Path(tempfile.mkdtemp(prefix="bench-push-"))
    public, private = vapid_key_pair()
    users = get_user_model().objects
    tag = secrets.token_hex(3)
    with SilentService() as silent:
        env = {"DJANGO_SETTINGS_MODULE": "tests.settings", "CELERY_QUEUE": QUEUE,
               "DATABASE_URL": database_url(connection.settings_dict),
               "WEBPUSH_VAPID_PUBLIC_KEY": public, "WEBPUSH_VAPID_PRIVATE_KEY": private,
               "WEBPUSH_MAX_FAILURES": "1000000", "TEST_WEBPUSH_LOCAL_ORIGINS": silent.origin}
        queues = [settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_OUTBOUND_QUEUE]
        if args.one_worker:
            workers = [start_celery_worker(env, logs, name=f"{QUEUE}-both", queues=queues)]
        else:
            workers = [start_celery_worker(env, logs, name=f"{QUEUE}-{queue}", queues=[queue])
                       for queue in queues]
        people, made = [], []
        try:
            for worker in workers:
                wait_for_worker(worker)
            people = [users.create_user(f"bp{tag}{n}", password="x-8dj2ks-Q")
                      for n in range(PEOPLE)]
            for person in people:
                for n in range(BROWSERS):
                    browser = Browser()
                    PushSubscription.objects.create(
                        user=person, endpoint=f"{silent.origin}/push/{person.pk}/{n}",
                        p256dh=b64url(browser.public), auth=b64url(browser.auth),
                        created_at=timezone.now())
            player = users.create_user(f"bp{tag}player", password="x-8dj2ks-Q")
            times: list[float] = []
            told, told_at = 0, -1
            started = time.monotonic()
            match = None
            while len(times) < args.moves:
                if match is None or ply_of(match.pk)[1] != Status.PLAYING:
                    match = play.match_create(players=[Player(user=player),
                                                       Player(ai_level=args.level)],
                                              trumps="SH")
                    made.append(match.pk)
                ply, _status, to_move = ply_of(match.pk)
                if to_move != 0:  # the AI leads this deal: its first move is not timed
                    wait_for_ai(match.pk, ply)
                    continue
                if len(times) % args.push_every == 0 and len(times) != told_at:
                    told, told_at = told + 1, len(times)
                    for person in people:
                        notify.notification_create(user_id=person.pk, kind=Kind.FINISHED,
                                                   key=f"finished:bench:{tag}:{told}")
                game = play_selectors.match_game(match=Match.objects.get(pk=match.pk))
                assert game is not None
                move = game.legal_moves()[0]
                game.play(move)
                play.move_apply(match_id=match.pk, seat=0, move=str(move), expected_ply=ply)
                if game.is_over() or game.state.to_move == 0:  # no AI move follows this one
                    continue
                times.append(wait_for_ai(match.pk, ply + 1))
            tried = PushSubscription.objects.filter(user__in=people).aggregate(
                n=Sum("failures"))["n"] or 0
            connections = silent.connections
            seconds = time.monotonic() - started
        finally:
            for worker in workers:
                worker.stop()
            for queue in queues:
                broker_empty(queue=queue)
            Match.objects.filter(pk__in=made).delete()
            users.filter(username__startswith=f"bp{tag}").delete()

    budget = level_budget(args.level)
    limit = budget + 0.3
    ms = [t * 1000 for t in times]
    topology = "one worker, default + outbound" if args.one_worker else (
        "a worker per queue (default, outbound)")
    print(f"AI level {args.level} (budget {budget * 1000:.0f} ms, limit {limit * 1000:.0f} ms), "
          f"{topology}; {PEOPLE * BROWSERS} silent push endpoints, "
          f"the eight people told something {told} times in {seconds:.0f} s: the silent service "
          f"took {connections} connections, {tried} pushes timed out and were counted")
    print(f"AI move (person's commit -> AI's move stored), n={len(ms)}: "
          f"p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
          f"p99 {percentile(ms, 0.99):.0f} ms, max {max(ms):.0f} ms; "
          f"{sum(t <= limit for t in times) / len(times):.1%} within the limit")


if __name__ == "__main__":
    main()
