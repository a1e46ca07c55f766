"""An arena on the production topology: bots join one arena and play every game they are paired
into, over real sockets.

    python bench/arena_load.py --players 100 --duration 120 --think 0.2 1

It starts the load tool's topology on this machine (`--servers` daphne processes and a Celery
worker, whose deadline watch runs the arenas' tick; `tests.load.topology`) on its own database
and Redis index, makes an arena on now and `--players` users who join it, and runs one bot per
player: it keeps its tournament socket open as a game page's strip does (`?quiet=1`: it keeps
it pairable, with no standings), and whenever the socket says it is paired it plays that game
over the match socket with the load tool's player (`tests.load.players`: random legal moves
after a think time), then waits for the next. It prints, over the measured time:

- each player's wait from the end of their game (as their board saw it) to the socket's
  `paired` for the next one: p50, p95, p99, max (and apart, the first pairing's, from the
  start, which waits for all the sockets to open); and the same wait as the database has it,
  from the match's end to the creation of the player's next game; how many re-pairings took
  longer than 3 s in each 20 s of the run; and how long a re-pairing's `paired` took from the
  start of its wave to the bot's socket;
- the move round trip (sent -> "ok") and its delivery to the opponent: p50, p95, p99;
- games played, errors, and the machine's load average at the start and the end.

The servers are stopped at the end; the arena and its games stay in the run's database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of play")
    parser.add_argument("--think", type=float, nargs=2, default=(0.2, 1.0),
                        metavar=("MIN", "MAX"))
    parser.add_argument("--clock", default="0.5+0",
                        help="the arena's time control (short: many games end in the run)")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/yourtrumps_arena_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--one-worker", action="store_true",
                        help="one Celery worker (two processes) on every queue, instead of "
                             "production's worker per queue")
    args = parser.parse_args()
    if args.players < 2 or args.duration <= 0:
        parser.error("--players must be at least 2 and --duration positive")
    # What the load tool's topology reads besides.
    args.url, args.port, args.no_worker, args.conn_max_age = None, None, False, "60"
    args.worker_args, args.production_workers = "--concurrency=2", not args.one_worker
    return args


def server_waits(tournament_id: int) -> list[float]:
    """From the database: for each player, the seconds from the end of a game (the match's
    `finished_at`) to the creation of their next game of the arena."""
    from games.tournaments.models import TournamentGame

    ended: dict[int, Any] = {}
    waits = []
    for game in TournamentGame.objects.filter(tournament_id=tournament_id).select_related(
            "match").order_by("pk"):
        for user_id in game.user_ids():
            if user_id in ended:
                waits.append((game.created_at - ended.pop(user_id)).total_seconds())
        if game.match.finished_at is not None:
            ended.update(dict.fromkeys(game.user_ids(), game.match.finished_at))
    return waits


def delivery_lags(tournament_id: int, delivered: list[tuple[int, float]]) -> list[float]:
    """For each re-pairing a bot was told of (`delivered`: its game, the wall time of the
    `paired`): the seconds from the start of the wave that made the game (its `created_at`)
    to the message's arrival (the bots and the servers share this machine's clock)."""
    from games.tournaments.models import TournamentGame

    created = {match_id: at.timestamp() for match_id, at in TournamentGame.objects.filter(
        tournament_id=tournament_id).values_list("match_id", "created_at")}
    return [max(0.0, at - created[match_id]) for match_id, at in delivered
            if match_id in created]


def percentiles(values: list[float]) -> str:
    from tests.load.stats import percentile

    if not values:
        return "none"
    return ", ".join(f"p{p} {percentile(values, p) * 1000:.0f} ms" for p in (50, 95, 99)) + (
        f", max {max(values) * 1000:.0f} ms ({len(values)} samples)")


CONNECT_ATTEMPTS = 20
LATE_SECONDS = 3.0  # the re-pairing the arena promises
LATE_WINDOW = 20.0


async def bot(cookie: str, token: str, servers: list[str], index: int, stop_at: float,
              think: tuple[float, float], stats: Any, waits: list[float], first: list[float],
              seed: int, seen: dict[tuple[int, int], float],
              delivered: list[tuple[int, float]], late: list[float]) -> None:
    import websockets

    from tests.load.client import connect
    from tests.load.players import Broken, Player, Seat, Timing

    server = servers[index % len(servers)]
    # As the strip of a game's page connects: pairable, told of its games, no standings. Five
    # hundred at once overflow a server's listen queue: like the page's reconnecting socket,
    # the bot tries again after a moment.
    for attempt in range(CONNECT_ATTEMPTS):
        try:
            socket = await connect(server, f"/ws/tournament/{token}/?quiet=1", cookie,
                                   max_size=2**22)
            break
        except (OSError, websockets.exceptions.InvalidHandshake, TimeoutError):
            if attempt == CONNECT_ATTEMPTS - 1:
                raise
            stats.errors["tournament socket: connect again"] += 1
            await asyncio.sleep(1 + 2 * random.random())
    paired: asyncio.Queue[tuple[float, float, str]] = asyncio.Queue()

    async def listen() -> None:
        async for text in socket:
            message = json.loads(text)
            if message.get("type") == "paired":
                paired.put_nowait((time.monotonic(), time.time(), message["url"]))

    listener = asyncio.create_task(listen())
    free_since = time.monotonic()
    played = 0
    rng = random.Random(seed * 100_000 + index)
    try:
        while time.monotonic() < stop_at:
            try:
                at, wall, url = await asyncio.wait_for(paired.get(), stop_at - time.monotonic())
            except TimeoutError:
                break
            match_id = int(url.rstrip("/").rsplit("/", 1)[1])
            if played:  # the first pairing waits for the sockets to open: not a re-pairing
                waits.append(max(0.0, at - free_since))
                delivered.append((match_id, wall))
                if at - free_since > LATE_SECONDS:
                    late.append(at)
            else:
                first.append(max(0.0, at - free_since))
            played += 1
            player = Player(Seat(match_id=match_id, seat=0, cookie=cookie, servers=servers,
                                 server_index=index),
                            Timing(think_min=think[0], think_max=think[1], stop_at=stop_at,
                                   rematch=False), stats, rng, seen)
            try:
                await player.connect()
                assert player.client is not None
                assert player.client.state is not None
                player.place.seat = player.client.state["you"]
                await player.play_game()
            except Broken as error:
                stats.errors[f"socket:{error}"] += 1
            finally:
                await player.disconnect()
            free_since = time.monotonic()
    finally:
        listener.cancel()
        await socket.close()


async def play(cookies: list[str], token: str, servers: list[str], args: argparse.Namespace,
               stats: Any, waits: list[float], first: list[float],
               delivered: list[tuple[int, float]], late: list[float]) -> None:
    stop_at = time.monotonic() + args.duration
    seen: dict[tuple[int, int], float] = {}  # (match, ply) -> sent: the opponent's delivery
    await asyncio.gather(*[
        bot(cookie, token, servers, index, stop_at, tuple(args.think), stats, waits, first,
            args.seed, seen, delivered, late)
        for index, cookie in enumerate(cookies)])


def main() -> None:
    args = parse_args()
    from tests.load.process_figures import command_cpu, machine_cpu, proc_figures
    from tests.load.topology import Topology

    with Topology(args) as topology:
        from datetime import timedelta

        from django.utils import timezone

        from games.play.time_control import TimeControl
        from games.tournaments import services
        from tests.load.sessions import create_users, session_cookie
        from tests.load.stats import Stats
        from tests.load.upkeep import database_settle

        arena = services.tournament_create(
            creator=None, name="load", time_control=TimeControl.parse(args.clock),
            starts_at=timezone.now() - timedelta(seconds=1),
            minutes=int(args.duration // 60) + 5)
        users = create_users(args.players, f"arena{os.getpid()}-")
        from games.tournaments.models import Participant

        now = timezone.now()
        Participant.objects.bulk_create([
            Participant(tournament=arena, user=user, rating=1500.0, joined_at=now,
                        free_since=now) for user in users])
        cookies = [session_cookie(user) for user in users]
        database_settle()
        stats, waits, first = Stats(), [], []
        delivered: list[tuple[int, float]] = []
        late: list[float] = []  # when a bot was paired more than LATE_SECONDS after its end
        load_before = os.getloadavg()
        bots = "the bots (this process, without the servers it started)"
        pids = {**topology.pids, bots: os.getpid()}

        def cpu_now() -> dict[str, float]:
            return {**{name: proc_figures(pid, children=name != bots)["cpu_s"]
                       for name, pid in pids.items()},
                    "PostgreSQL (every backend)": command_cpu("postgres")}

        cpu_before = cpu_now()
        machine_before = machine_cpu()
        print(f"{args.players} players on {', '.join(topology.servers)}; playing "
              f"{args.duration:.0f} s ...", flush=True)
        started = time.monotonic()
        samples: list[tuple[float, float, float, dict[str, float]]] = []
        sampling = threading.Event()
        sampler = threading.Thread(target=sample, args=(cpu_now, samples, sampling),
                                   daemon=True)
        sampler.start()
        asyncio.run(play(cookies, arena.token, topology.servers, args, stats, waits, first,
                         delivered, late))
        sampling.set()
        sampler.join()
        elapsed = time.monotonic() - started
        load_after = os.getloadavg()
        cpu = {name: seconds - cpu_before[name] for name, seconds in cpu_now().items()}
        busy, total = (after - before for after, before in zip(machine_cpu(), machine_before,
                                                                  strict=True))
        on_server = server_waits(arena.pk)
        delivery = delivery_lags(arena.pk, delivered)
    print(f"arena of {args.players} players, {args.clock}, {args.duration:.0f} s, "
          f"{len(topology.servers)} servers")
    print(f"  first pairing, from the start: {percentiles(first)}")
    print(f"  wait from a game's end to the next pairing, as the bots saw it: "
          f"{percentiles(waits)}")
    print(f"  the same in the database (the match's end to the next game's creation): "
          f"{percentiles(on_server)}")
    print(f"  re-pairings later than {LATE_SECONDS:.0f} s, by {LATE_WINDOW:.0f} s of the run: "
          + " ".join(str(sum(1 for at in late if i * LATE_WINDOW <= at - started
                                 < (i + 1) * LATE_WINDOW))
                     for i in range(math.ceil(elapsed / LATE_WINDOW))))
    print(f"  a re-pairing's `paired` delivered, from its wave's start to the bot's socket: "
          f"{percentiles(delivery)}")
    print(f"  move round trip: {percentiles(stats.move_rtt)}")
    print(f"  move delivered to the opponent: {percentiles(stats.seen_by_opponent)}")
    print(f"  games finished: {stats.games_finished}; errors: {dict(stats.errors) or 'none'}")
    print(f"  load average at the start {load_before[0]:.1f}, at the end {load_after[0]:.1f}; "
          f"the machine {busy / total:.0%} busy")
    print("  cores used (each process with its children): " + ", ".join(
        f"{name} {seconds / elapsed:.2f}" for name, seconds in cpu.items()))
    busiest = busiest_stretch(samples)
    if busiest is not None:
        seconds, share, cores = busiest
        print(f"  the busiest {seconds:.0f} s: the machine {share:.0%} busy; cores used: "
              + ", ".join(f"{name} {used:.2f}" for name, used in cores.items()))


SAMPLE_SECONDS = 2.0
BUSIEST_SAMPLES = 10  # the stretch reported: 20 s, about the length of a burst of game ends


def sample(cpu_now: Any, samples: list[tuple[float, float, float, dict[str, float]]],
           done: threading.Event) -> None:
    """Every `SAMPLE_SECONDS` until `done`: (time, machine busy, machine total, each
    process's CPU seconds)."""
    from tests.load.process_figures import machine_cpu

    while not done.wait(SAMPLE_SECONDS):
        busy, total = machine_cpu()
        samples.append((time.monotonic(), busy, total, cpu_now()))


def busiest_stretch(samples: list[tuple[float, float, float, dict[str, float]]]
                    ) -> tuple[float, float, dict[str, float]] | None:
    """The stretch of `BUSIEST_SAMPLES` samples in which the machine was busiest: its
    length, the machine's busy share and each process's cores over it."""
    if len(samples) <= BUSIEST_SAMPLES:
        return None
    start = max(range(len(samples) - BUSIEST_SAMPLES), key=lambda i: (
        (samples[i + BUSIEST_SAMPLES][1] - samples[i][1])
        / max(1.0, samples[i + BUSIEST_SAMPLES][2] - samples[i][2])))
    (t0, busy0, total0, cpu0), (t1, busy1, total1, cpu1) = (
        samples[start], samples[start + BUSIEST_SAMPLES])
    return t1 - t0, (busy1 - busy0) / max(1.0, total1 - total0), {
        name: (cpu1[name] - cpu0[name]) / (t1 - t0) for name in cpu1}


if __name__ == "__main__":
    main()
