"""What one live move costs the server, in CPU time: no sockets, no other load.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/move_cost.py --moves 2000

It migrates the database it is given, makes `--duels` ranked 10+5 duels, and plays random
legal moves round-robin through `services.move_apply` (the one door of every move, which
also makes the snapshot and sets the next deadline) as a socket does: on a database thread
(`db_call`) of a running event loop, which sends the broadcast (to Redis with `REDIS_URL`
set, as in production). It then renders each move's view for both seats as the sockets do.

It prints this process's CPU milliseconds per move (`time.process_time`, every thread of the
process, so other programs on the machine count little): the move with its snapshot and
broadcast, and the two views; and the wall time. Choosing the bots' moves is not counted.
The players and matches it made are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games.play import services  # noqa: E402
from games.play.models import Match  # noqa: E402
from games.play.services import Player  # noqa: E402
from games.play.state_message import state_message  # noqa: E402
from games.play.time_control import TimeControl  # noqa: E402
from games.rules import State  # noqa: E402
from infra import gc_pacing  # noqa: E402
from infra.db_threads import db_call  # noqa: E402


async def play(matches: list[Match], new_duel: object, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    # Warm up: the database threads' connections and the channel layer's.
    await db_call(Match.objects.filter(pk=matches[0].pk).exists)
    played = 0
    aside = render_cpu = 0.0
    wall = time.perf_counter()
    cpu = time.process_time()
    while played < moves:
        for index, match in enumerate(matches):
            if played >= moves:
                break
            started = time.thread_time()
            if match.is_over:
                matches[index] = match = await db_call(new_duel, index)  # type: ignore[arg-type]
            move = rng.choice(State.from_tpn(match.position_tpn).legal_moves())
            aside += time.thread_time() - started
            change = await db_call(services.move_apply, match_id=match.pk, seat=match.to_move,
                                   move=str(move), expected_ply=match.ply)
            matches[index] = match = change.match
            started = time.thread_time()
            for seat in (0, 1):
                state_message(snapshot=change.snapshot, viewer_seat=seat)
            render_cpu += time.thread_time() - started
            played += 1
            await asyncio.sleep(0)  # let the loop send the broadcast, as a daphne would
    await asyncio.sleep(0.2)  # the last broadcasts
    cpu = time.process_time() - cpu - aside - render_cpu
    wall = time.perf_counter() - wall
    print(f"{played} moves in {wall:.1f} s ({played / wall:.0f} moves/s on one socket)")
    print(f"CPU ms per move: move_apply + snapshot + broadcast {cpu / played * 1000:.2f}, "
          f"two views {render_cpu / played * 1000:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000, help="moves to play in all")
    parser.add_argument("--duels", type=int, default=50, help="duels played round-robin")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.moves < 1 or args.duels < 1:
        parser.error("--moves and --duels must be at least 1")
    call_command("migrate", verbosity=0)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"movecost-{os.getpid()}-{i}") for i in range(2 * args.duels)
    )

    def new_duel(index: int) -> Match:
        return services.match_create(
            players=[Player(user=users[2 * index]), Player(user=users[2 * index + 1])],
            rated=True, time_control=TimeControl(600, 5), trumps="SH")

    matches = [new_duel(i) for i in range(args.duels)]
    # The garbage collector as a daphne sets it (`yourtrumps_site/asgi.py`).
    gc.collect()
    gc.freeze()
    gc_pacing.start()
    try:
        asyncio.run(play(matches, new_duel, args.moves, args.seed))
    finally:
        Match.objects.filter(seats__user__in=users).delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()


if __name__ == "__main__":
    main()
