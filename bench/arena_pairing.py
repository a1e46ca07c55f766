"""How fast an arena pairs, at the service level: no sockets, the real database.

    DATABASE_URL=postgres://... python bench/arena_pairing.py --players 500 --ends 200

It migrates the database it is given, makes an arena on now and `--players` players who
join it (their pages open: present), and times

- the first wave, which pairs them all at once (`arena_wave`: the lock, the pairing, a match
  and an arena game per pair);
- `--ends` game ends, in random order among the games in progress, `--batch` at a time (as
  games end close together in a busy arena): the batch's games resigned, then each scored by
  the service the end's task calls (`tournament_game_score`, which runs the wave). Each freed
  player's wait from the end of their game to their next game (wall time, this process) is
  one sample: p50, p95, p99, max. A player freed while nobody else is free meets the one
  other freed player, or waits for the next end, as in an arena;
- one tick of the arenas' clock with nobody free (`tournaments_tick`): what the deadline
  watch pays every second.

Without `REDIS_URL` the channel layer is in memory. The arena, its players and their games
are deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import random
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
from django.utils import timezone  # noqa: E402

from games.play import services as play  # noqa: E402
from games.play.models import Match, Seat, Status  # noqa: E402
from games.play.time_control import TimeControl  # noqa: E402
from games.tournaments import services  # noqa: E402
from games.tournaments.models import Participant, TournamentGame  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def resign(match: Match) -> None:
    while match.status == Status.TRUMPS:
        play.match_deadline_enforce(match_id=match.pk, now=match.due_at)
        match.refresh_from_db()
    play.match_resign(match_id=match.pk, seat=0, now=match.turn_started_at)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--ends", type=int, default=200, help="game ends to time")
    parser.add_argument("--batch", type=int, default=4, help="games ending together")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.players < 2 or args.ends < 1 or args.batch < 1:
        parser.error("--players must be at least 2, --ends and --batch at least 1")
    from django.db import OperationalError, connection

    try:
        connection.ensure_connection()
    except OperationalError as error:
        sys.exit(f"cannot use the database of DATABASE_URL ({error}); create it first, or "
                 "name another")
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    now = timezone.now()
    arena = services.tournament_create(
        creator=None, name="bench", time_control=TimeControl(180, 2),
        starts_at=now - timedelta(seconds=1), minutes=600)
    services.tournaments_tick(now=now)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"arenabench-{os.getpid()}-{i}") for i in range(args.players))
    try:
        Participant.objects.bulk_create([
            Participant(tournament=arena, user=user, rating=1500 + rng.uniform(-300, 300),
                        joined_at=now, free_since=now,
                        present_until=now + timedelta(hours=10)) for user in users])
        started = time.perf_counter()
        first = services.arena_wave(tournament_id=arena.pk, force=True)
        wave_seconds = time.perf_counter() - started

        waits: list[float] = []
        freed_at: dict[int, float] = {}
        done = 0
        while done < args.ends:
            live = list(TournamentGame.objects.filter(tournament=arena, scored=False)
                        .values_list("match_id", flat=True))
            batch = rng.sample(live, min(args.batch, len(live), args.ends - done))
            for match_id in batch:
                resign(Match.objects.get(pk=match_id))
                end = time.perf_counter()
                for user_id in Seat.objects.filter(match_id=match_id).values_list(
                        "user_id", flat=True):
                    freed_at[user_id] = end
            for match_id in batch:
                services.tournament_game_score(match_id=match_id)
                paired = time.perf_counter()
                for game in TournamentGame.objects.filter(tournament=arena, scored=False,
                                                     user_a__in=list(freed_at)):
                    for user_id in game.user_ids():
                        if user_id in freed_at:
                            waits.append(paired - freed_at.pop(user_id))
                for game in TournamentGame.objects.filter(tournament=arena, scored=False,
                                                     user_b__in=list(freed_at)):
                    for user_id in game.user_ids():
                        if user_id in freed_at:
                            waits.append(paired - freed_at.pop(user_id))
                done += 1
        started = time.perf_counter()
        Participant.objects.filter(tournament=arena).update(free_since=None)
        services.tournaments_tick()
        tick_ms = (time.perf_counter() - started) * 1000
    finally:
        Match.objects.filter(tournament_game__tournament=arena).delete()
        arena.delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()

    print(f"arena of {args.players} players: the first wave paired {2 * len(first)} "
          f"in {wave_seconds:.2f} s ({wave_seconds / max(1, len(first)) * 1000:.1f} ms a game)")
    if waits:
        print(f"{len(waits)} players re-paired after {args.ends} game ends ({args.batch} at a "
              f"time): wait from the end to the next game p50 "
              f"{statistics.median(waits) * 1000:.0f} ms, p95 {percentile(waits, .95) * 1000:.0f}"
              f" ms, p99 {percentile(waits, .99) * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms;"
              f" {len(freed_at)} still free at the end")
    print(f"one tick of the arenas' clock with nobody free: {tick_ms:.1f} ms")


if __name__ == "__main__":
    main()
