"""What one move costs the server, in CPU time, part by part: no sockets, no other load.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/move_cost.py --moves 2000

It migrates the database it is given, makes `--duels` ranked 10+5 duels, and plays random
legal moves round-robin through `services.move_apply` (the one door of every move, which
also makes the snapshot and sets the next deadline), then renders each move's view for both
seats as the sockets do. It prints this process's CPU milliseconds per move for each part
(`time.process_time`, so other programs on the machine count little) and the wall time; with
`REDIS_URL` set the broadcast goes to Redis as in production.
The players and matches it made are deleted at the end.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000, help="moves to play in all")
    parser.add_argument("--duels", type=int, default=50, help="duels played round-robin")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.moves < 1 or args.duels < 1:
        parser.error("--moves and --duels must be at least 1")
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"movecost-{os.getpid()}-{i}") for i in range(2 * args.duels)
    )
    def new_duel(index: int) -> Match:
        return services.match_create(
            players=[Player(user=users[2 * index]), Player(user=users[2 * index + 1])],
            rated=True, time_control=TimeControl(600, 5), trumps="SH")

    matches = [new_duel(i) for i in range(args.duels)]
    apply_cpu = render_cpu = 0.0
    played = 0
    wall = time.perf_counter()
    try:
        while played < args.moves:
            for index, match in enumerate(matches):
                if played >= args.moves:
                    break
                if match.is_over:
                    matches[index] = match = new_duel(index)
                move = rng.choice(State.from_tpn(match.position_tpn).legal_moves())
                started = time.process_time()
                change = services.move_apply(match_id=match.pk, seat=match.to_move,
                                             move=str(move), expected_ply=match.ply)
                apply_cpu += time.process_time() - started
                matches[index] = match = change.match
                started = time.process_time()
                for seat in (0, 1):
                    state_message(snapshot=change.snapshot, viewer_seat=seat)
                render_cpu += time.process_time() - started
                played += 1
        wall = time.perf_counter() - wall
        print(f"{played} moves in {wall:.1f} s ({played / wall:.0f} moves/s on one thread)")
        print(f"CPU ms per move: move_apply + snapshot + broadcast "
              f"{apply_cpu / played * 1000:.2f}, two views {render_cpu / played * 1000:.2f}")
    finally:
        Match.objects.filter(seats__user__in=users).delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()


if __name__ == "__main__":
    main()
