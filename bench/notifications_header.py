"""What the header's notifications cost the server for a busy player: the badge (the unread
count every page renders) and the list the site socket sends on connect.

    DATABASE_URL=postgres://... python bench/notifications_header.py --games 200 --per-game 5

It migrates the database it is given, makes one player with `--games` duels, each with
`--per-game` notifications (turns, reminders, the end) and a challenge each from as many
others, half of them read, plus as many notifications of other players; then times
`selectors.unread_count` and the socket's first message (`notifications_newest` and
`notification_items`, the query and the rendering) `--repeat` times. It prints the median
and the 95th percentile of the wall milliseconds and the queries of each. What it made is
deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.play import services as play  # noqa: E402
from games.play.models import Match  # noqa: E402
from games.play.services import Player  # noqa: E402
from notifications import selectors  # noqa: E402
from notifications.models import Kind, Notification  # noqa: E402

KINDS = [Kind.TURN, Kind.REMINDER, Kind.FINISHED, Kind.REMATCH, Kind.DRAW_DECLINED]


def timed(action, repeat: int) -> tuple[float, float, int]:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    if args.games < 1 or args.per_game < 1 or args.repeat < 1:
        parser.error("--games, --per-game and --repeat must be at least 1")
    call_command("migrate", verbosity=0)
    prefix = f"nbench{os.getpid()}-"
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"{prefix}{i}"[:20]) for i in range(args.games + 1))
    player, others = users[0], users[1:]
    match_ids: list[int] = []
    try:
        now = timezone.now()
        rows = []
        for index, other in enumerate(others):
            match = play.match_create(players=[Player(user=player), Player(user=other)],
                                      trumps="SH")
            match_ids.append(match.pk)
            for step in range(args.per_game):
                at = now - timedelta(minutes=index * args.per_game + step)
                for user, actor in ((player, other), (other, player)):
                    rows.append(Notification(
                        user=user, kind=KINDS[step % len(KINDS)], key=f"b:{match.pk}:{step}",
                        actor=actor, match=match, created_at=at,
                        read_at=at if step % 2 else None))
        Notification.objects.bulk_create(rows, batch_size=2000)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE notifications_notification")

        def badge() -> None:
            selectors.unread_count(user_id=player.pk)

        def first_message() -> None:
            selectors.notification_items(selectors.notifications_newest(user_id=player.pk))

        total = Notification.objects.filter(user=player).count()
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"load average of this machine: {load} (wall times grow with it)")
        print(f"{connection.vendor}: a player with {args.games} games and {total} "
              f"notifications ({selectors.unread_count(user_id=player.pk)} unread); "
              f"{Notification.objects.count()} in all")
        for name, action in (("header badge (unread count)", badge),
                             ("site socket's first list", first_message)):
            median, p95, queries = timed(action, args.repeat)
            print(f"{name}: median {median:.2f} ms, p95 {p95:.2f} ms, {queries} queries")
    finally:
        Match.objects.filter(pk__in=match_ids).delete()
        get_user_model().objects.filter(username__startswith=prefix).delete()


if __name__ == "__main__":
    main()
