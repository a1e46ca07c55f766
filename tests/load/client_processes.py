"""The clients of a load run: the players of every place, in this process or in client
processes of their own (the hostile sockets always in one of their own), playing until the
ramp and the measured time are over; what they counted, merged into one `Stats`."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import random
import threading
import time
from typing import Any

from tests.load.config import Config
from tests.load.places import Place
from tests.load.stats import Stats


async def play(groups: list[list[Place]], config: Config, stop_at: float, seed: int,
               hostiles: list[Any] | None = None) -> Stats:
    from tests.load.hostile import run_hostile
    from tests.load.players import REPLY_TIMEOUT, Player, Seat, Timing

    stats = Stats()
    timing = Timing(config.think_min, config.think_max, stop_at, rematch=config.rematch,
                    ramp=config.ramp, measure_from=stop_at - config.duration)
    rng = random.Random(seed)
    collect_never(stats)
    monitor = asyncio.create_task(watch_loop(stats))
    players = []
    for group in groups:
        shared: dict[tuple[int, int], float] = {}
        for place in group:
            seat = Seat(place.match_id, place.seat, place.cookie, place.servers,
                        ai_level=place.ai_level, table_ai_level=place.table_ai_level)
            players.append(Player(seat, timing, stats, random.Random(rng.random()), shared))
    junk = [asyncio.create_task(run_hostile(place, stop_at, random.Random(rng.random()),
                                            stats.hostile)) for place in hostiles or []]
    tasks = [asyncio.create_task(p.run()) for p in players]
    # Bounded in time whatever the servers do: a player still at it long after the end (a
    # reply that never came) is stopped and counted, with where it was waiting.
    grace = config.think_max + 2 * REPLY_TIMEOUT + 10
    late: set[asyncio.Task[None]] = set()
    if tasks:
        _done, late = await asyncio.wait(tasks,
                                         timeout=max(0.0, stop_at - time.monotonic()) + grace)
    for task in late:
        stats.errors[f"client:still playing {grace:.0f} s after the end, at "
                     f"{awaiting(task.get_coro())}"] += 1
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    results = [r for r in results if not isinstance(r, asyncio.CancelledError)]
    for result in await asyncio.gather(*junk, return_exceptions=True):
        if isinstance(result, BaseException):
            stats.hostile[f"client:{type(result).__name__}"] += 1
    for result in results:
        if isinstance(result, BaseException):
            stats.errors[f"client:{type(result).__name__}:{str(result)[:80]}"] += 1
    monitor.cancel()
    return stats


def awaiting(coro: Any) -> str:
    """Where a suspended coroutine waits: its chain of awaits, innermost last."""
    frames = []
    while coro is not None and getattr(coro, "cr_frame", None) is not None:
        frames.append(f"{coro.cr_code.co_name}:{coro.cr_frame.f_lineno}")
        coro = coro.cr_await
    return " > ".join(frames[-4:])


async def watch_loop(stats: Stats) -> None:
    """The client's own event-loop lag: if it is large, the client (not the server) is slow."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(0.1)
        lag = time.monotonic() - before - 0.1
        stats.loop_lags.append(lag)


def collect_never(stats: Stats) -> None:
    """The clients run no collection of their own, timing any that runs: what their sockets
    make is freed by reference counting (the servers' probe found next to no cycles, and a
    run lasts minutes), while a collection holds the client's loop, time that a move's round
    trip counts (young collections a quarter of a second, a whole one half a second)."""
    started: list[float] = []

    def time_it(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            stats.gc_pauses.append(time.perf_counter() - started.pop())

    gc.callbacks.append(time_it)
    gc.disable()


def _stop_with_parent() -> None:
    """End this client process once the run that spawned it is gone (killed, say): left
    alone it would go on reconnecting to servers that no longer exist, on the CPU of the
    next run."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def client_process(groups: list[list[Place]], config: Config, stop_at: float, seed: int,
                   out: Any, hostiles: list[Any] | None = None) -> None:
    if hostiles and config.hostile_nice:
        # A stand-in for an attacker on another machine: its junk is made with the CPU that
        # the honest clients and the servers (at their normal priority) leave over.
        os.nice(config.hostile_nice)
    _stop_with_parent()
    # As in the servers (yourtrumps_site/asgi.py): what is loaded lives for the whole run, so
    # the collector's full walks leave it out; their pauses would be counted as latency.
    gc.collect()
    gc.freeze()
    started = time.process_time()
    stats = asyncio.run(play(groups, config, stop_at, seed, hostiles))
    out.put((stats, time.process_time() - started, bool(hostiles)))


def run_clients(groups: list[list[Place]], config: Config,
                hostiles: list[Any] | None = None) -> tuple[Stats, float, float]:
    """Play all games until `config.duration` has passed; the stats and the CPU seconds of
    the honest clients and of the hostile one. Hostile sockets run in a client process of
    their own, so that making their junk does not slow the event loop that times the honest
    players."""
    stop_at = time.monotonic() + config.ramp + config.duration
    from django.db import connections

    # Spawned, not forked: the parent has threads by now (the broadcasts' event loop, Celery's
    # producer) and a child forked while one of them held a lock hung at its first step.
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    children = []
    if hostiles or config.client_procs > 1:
        connections.close_all()
    if hostiles:
        children.append(context.Process(target=client_process,
                                        args=([], config, stop_at, config.seed + 1000, out,
                                              hostiles)))
    total, cpu, hostile_cpu = Stats(), 0.0, 0.0
    if config.client_procs <= 1:
        for child in children:
            child.start()
        started = time.process_time()
        total = asyncio.run(play(groups, config, stop_at, config.seed))
        cpu = time.process_time() - started
    else:
        shares = [groups[i::config.client_procs] for i in range(config.client_procs)]
        children += [context.Process(target=client_process,
                                     args=(share, config, stop_at, config.seed + i, out))
                     for i, share in enumerate(shares) if share]
        for child in children:
            child.start()
    for _ in children:
        stats, used, hostile = out.get()
        total.merge(stats)
        if hostile:
            hostile_cpu += used
        else:
            cpu += used
    for child in children:
        child.join()
    return total, cpu, hostile_cpu
