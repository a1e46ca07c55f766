"""The load tool: many bots playing real games over the match sockets of real servers.

    python -m tests.load --duels 500 --duration 300 --think 2 6
    python -m tests.load --duels 0 --ai-games 4 --ai-level 1 --duration 120
    python -m tests.load --duels 500 --duration 300 --ramp 60 --hostile 0.1
    python -m tests.load --duels 500 --duration 300 --ramp 60 --hostile 0.1 --hostile-nice 19
    python -m tests.load --duels 0 --tables 100 --duration 60
    python -m tests.load --duels 0 --ai-tables 100 --think 1 3 --duration 60

By default it starts its own production topology on this machine (`--servers` daphne processes
and one Celery worker, `DJANGO_ENV=production`) on its own database (`--database-url`, created
and migrated if missing) and its own Redis database index, and stops them at the end. Users and
matches are created through the ORM and services (the pairing pages are tested elsewhere); every
move goes over a real socket. The two players of a duel connect to different servers, so every
move crosses processes through Redis.

With `--hostile 0.1` one socket in ten is hostile (`tests.load.hostile`): it sends junk on
match, lobby and site sockets and unknown routes; the honest players' figures are reported
apart from it, and the servers' logs are searched for server errors. The hostile sockets run
in a client process of their own; `--hostile-nice 19` runs it at the lowest CPU priority, a
stand-in for an attacker on another machine (the honest clients and the servers keep their
normal priority), and the report gives its CPU apart.

It prints connections held, moves per second, the move round trip (sent -> "ok") and the
delivery to the opponent (sent -> the opponent's new state) at p50/p95/p99, the AI's move
latency per level, errors, memory and CPU of each server process, and the consistency check:
every move a client saw acknowledged is in the database exactly once, every match's moves are
plies 1..n without gaps or repeats and replay to its stored position, and every finished game
replays to its stored result.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import secrets
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.play.time_control import TimeControl
from tests.load.stats import Stats, percentile
from tests.load.tables import create_table_places, table_ai_figures, table_users_needed


@dataclass
class Config:
    duels: int = 10
    ai_games: int = 0
    ai_levels: list[int] = field(default_factory=lambda: [1])
    duration: float = 20.0
    think_min: float = 2.0
    think_max: float = 6.0
    clock: str | None = "600+5"
    rated: bool = True
    client_procs: int = 1
    seed: int = 0
    rematch: bool = True
    ramp: float = 0.0  # seconds over which the players connect; measured after it
    hostile: float = 0.0  # the share of all sockets that send junk (tests.load.hostile)
    hostile_nice: int = 0  # the hostile client process's niceness (19: the lowest priority)
    tables: int = 0  # tables of four people (tests.load.tables)
    ai_tables: int = 0  # tables of one person and three AI seats
    table_ai_level: int = 3


@dataclass
class Place:
    """What a client process needs to play one seat (plain data: it crosses a fork)."""

    match_id: int
    seat: int
    cookie: str
    servers: list[str]
    ai_level: int | None = None
    table_ai_level: int | None = None  # the AI seats' level, at a table of one person


# --- setup (in the parent, through the ORM) ---------------------------------------------------


def create_users(count: int, prefix: str) -> list[Any]:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    users = []
    for i in range(count):
        user = user_model(username=f"{prefix}{i}", email=f"{prefix}{i}@load.invalid")
        user.set_unusable_password()
        users.append(user)
    user_model.objects.bulk_create(users, batch_size=500)
    return list(user_model.objects.filter(username__startswith=prefix).order_by("pk"))


def create_places(config: Config, servers: list[str]) -> list[list[Place]]:
    """Users, sessions and matches; the places grouped by the game they play."""
    from games.play import services
    from games.play.services import Player
    from tests.load.sessions import session_cookie

    rng = random.Random(config.seed)
    prefix = f"load{secrets.token_hex(3)}-"
    users = create_users(2 * config.duels + config.ai_games
                         + table_users_needed(config.tables, config.ai_tables), prefix)
    clock: tuple[int | None, int] = (None, 0)
    if config.clock:
        initial, increment = config.clock.split("+")
        clock = (int(initial), int(increment))
    groups: list[list[Place]] = []
    for d in range(config.duels):
        a, b = users[2 * d], users[2 * d + 1]
        match = services.match_create(
            players=[Player(user=a), Player(user=b)], rated=config.rated and bool(config.clock),
            time_control=TimeControl(clock[0], clock[1]), trumps=rng.choice(["SH", "DC"]),
        )
        # The two players of a duel are on different servers: each move crosses processes.
        groups.append([
            Place(match.pk, 0, session_cookie(a), rotate(servers, d)),
            Place(match.pk, 1, session_cookie(b), rotate(servers, d + 1)),
        ])
    for g in range(config.ai_games):
        user = users[2 * config.duels + g]
        level = config.ai_levels[g % len(config.ai_levels)]
        human = rng.randrange(2)
        players = [Player(ai_level=level), Player(ai_level=level)]
        players[human] = Player(user=user)
        match = services.match_create(players=players,
                                      time_control=TimeControl(clock[0], clock[1]), trumps="SH")
        groups.append([Place(match.pk, human, session_cookie(user), rotate(servers, g), level)])
    groups += create_table_places(
        tables=config.tables, ai_tables=config.ai_tables, ai_level=config.table_ai_level,
        users=users[2 * config.duels + config.ai_games:], servers=servers, clock=clock,
        rated=config.rated, rng=rng,
    )
    return groups


def rotate(servers: list[str], by: int) -> list[str]:
    by %= len(servers)
    return servers[by:] + servers[:by]


# --- the clients (in child processes) ---------------------------------------------------------


async def play(groups: list[list[Place]], config: Config, stop_at: float, seed: int,
               hostiles: list[Any] | None = None) -> Stats:
    from tests.load.hostile import run_hostile
    from tests.load.players import REPLY_TIMEOUT, Player, Seat, Timing

    stats = Stats()
    timing = Timing(config.think_min, config.think_max, stop_at, rematch=config.rematch,
                    ramp=config.ramp, measure_from=stop_at - config.duration)
    rng = random.Random(seed)
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
        stats.loop_lag_max = max(stats.loop_lag_max, time.monotonic() - before - 0.1)


def client_process(groups: list[list[Place]], config: Config, stop_at: float, seed: int,
                   out: Any, hostiles: list[Any] | None = None) -> None:
    if hostiles and config.hostile_nice:
        # A stand-in for an attacker on another machine: its junk is made with the CPU that
        # the honest clients and the servers (at their normal priority) leave over.
        os.nice(config.hostile_nice)
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


# --- the consistency check (in the parent, through the ORM) -----------------------------------


def check_consistency(stats: Stats, match_ids: set[int]) -> dict[str, Any]:
    from games.play.models import Match, Move, Status
    from games.rules import Game, State

    rows: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for match_id, ply, seat, text in Move.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "ply", "seat", "text"
    ):
        rows[(match_id, ply)].append((seat, text))
    lost, duplicated, wrong = [], [], []
    for match_id, ply, seat, move in [*stats.acks, *stats.applied_unacked]:
        found = rows.get((match_id, ply), [])
        if not found:
            lost.append((match_id, ply, move))
        elif len(found) > 1:
            duplicated.append((match_id, ply, move))
        elif found[0] != (seat, move):
            wrong.append((match_id, ply, move, found[0]))
    gaps, bad_replay, bad_result, finished = [], [], [], 0
    decided_by_play = {"normal", "draw rule", "repetition", "move limit"}
    for match in Match.objects.filter(pk__in=match_ids):
        plies = sorted(p for (m, p) in rows if m == match.pk)
        if plies != list(range(1, match.ply + 1)) or any(
            len(rows[(match.pk, p)]) != 1 for p in plies
        ):
            gaps.append(match.pk)
            continue
        if not match.deal_tpn:
            continue
        # A match started from a crafted position has no deal to check its start against.
        seed = None if getattr(match, "from_position", False) else match.seed
        game = Game(State.from_tpn(match.deal_tpn, strict=match.variant == "strict"),
                    seed=seed, dealer=None if seed is None else match.dealer)
        try:
            for p in plies:
                game.play(rows[(match.pk, p)][0][1])
        except Exception as error:
            bad_replay.append((match.pk, str(error)))
            continue
        if match.position_tpn and game.state.tpn() != match.position_tpn:
            bad_replay.append((match.pk, "position differs"))
        if match.status == Status.FINISHED:
            finished += 1
            if match.termination in decided_by_play:
                outcome = game.outcome()
                if outcome is None or outcome.loser != match.loser_seat or (
                    (outcome.loser is None) != (match.result == "draw")
                ):
                    bad_result.append(match.pk)
    return {
        "acknowledged_moves": len(stats.acks),
        "applied_while_unacknowledged": len(stats.applied_unacked),
        "lost": len(lost), "duplicated": len(duplicated), "wrong": len(wrong),
        "matches_checked": len(match_ids), "matches_with_gaps": len(gaps),
        "bad_replays": len(bad_replay), "finished_games_checked": finished,
        "results_not_replayed": len(bad_result),
        "examples": {"lost": lost[:5], "duplicated": duplicated[:5], "wrong": wrong[:5],
                     "gaps": gaps[:5], "bad_replay": bad_replay[:5], "bad_result": bad_result[:5]},
        "ok": not (lost or duplicated or wrong or gaps or bad_replay or bad_result),
    }


def matches_played(groups: list[list[Place]]) -> set[int]:
    """The first matches and every rematch that followed them."""
    from games.play.models import Match

    ids = {place.match_id for group in groups for place in group}
    frontier = set(ids)
    while frontier:
        frontier = set(Match.objects.filter(previous_id__in=frontier).values_list("pk",
                                                                                  flat=True))
        frontier -= ids
        ids |= frontier
    return ids


# --- process figures --------------------------------------------------------------------------


def proc_figures(pid: int) -> dict[str, float]:
    """Resident memory (MiB) and CPU seconds so far of a process and its children."""
    rss = 0.0
    cpu = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for p in [pid, *child_pids(pid)]:
        try:
            status = Path(f"/proc/{p}/status").read_text()
            rss += int(next(line.split()[1] for line in status.splitlines()
                            if line.startswith("VmRSS:"))) / 1024
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    return {"rss_mib": rss, "cpu_s": cpu}


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine so far, from /proc/stat."""
    try:
        fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return sum(fields) - idle, sum(fields)


def child_pids(pid: int) -> list[int]:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    found = [int(c) for c in children]
    for child in list(found):
        found += child_pids(child)
    return found


# --- the run ----------------------------------------------------------------------------------


def run_load(config: Config, servers: list[str], server_pids: dict[str, int] | None = None,
             log: Any = print, logs: Path | None = None) -> dict[str, Any]:
    """Set up, play, check; the report as a dict (the servers must be running). With the
    folder of the servers' `logs`, the report counts the server errors they tell of."""
    from tests.load.hostile import create_hostiles, log_errors

    server_pids = server_pids or {}
    log(f"setting up {config.duels} duels, {config.ai_games} games against the AI, "
        f"{config.tables} tables of four people and {config.ai_tables} of one person and "
        f"three AI seats ...")
    started = time.monotonic()
    groups = create_places(config, servers)
    honest = sum(len(group) for group in groups)
    share = min(max(config.hostile, 0.0), 0.9)
    hostiles = create_hostiles(round(honest * share / (1 - share)),
                               [g[0].match_id for g in groups if len(g) == 2], servers,
                               config.seed)
    if hostiles:
        log(f"  and {len(hostiles)} hostile sockets ({share:.0%} of all)")
    log(f"  set up in {time.monotonic() - started:.1f} s")
    before = {name: proc_figures(pid) for name, pid in server_pids.items()}
    log(f"playing for {config.duration:.0f} s (think {config.think_min}-{config.think_max} s) ...")
    peak: dict[str, dict[str, float]] = {}
    sampler_stop = multiprocessing.Event() if server_pids else None
    began = time.monotonic()
    cpu_before = machine_cpu()
    if server_pids:
        import threading

        def sample() -> None:
            assert sampler_stop is not None
            while not sampler_stop.wait(2.0):
                for name, pid in server_pids.items():
                    figures = proc_figures(pid)
                    if figures["rss_mib"] > peak.get(name, {}).get("rss_mib", 0):
                        peak[name] = figures

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
    stats, client_cpu, hostile_cpu = run_clients(groups, config, hostiles)
    elapsed = time.monotonic() - began
    if sampler_stop is not None:
        sampler_stop.set()
    after = {name: proc_figures(pid) for name, pid in server_pids.items()}
    cpu_after = machine_cpu()
    machine_busy = (cpu_after[0] - cpu_before[0]) / max(cpu_after[1] - cpu_before[1], 1e-9)
    log("checking the database ...")
    from django.db import connections

    connections.close_all()
    consistency = check_consistency(stats, matches_played(groups))
    moving = (stats.last_move_at or 0) - (stats.first_move_at or 0)
    players = sum(len(g) for g in groups)
    report: dict[str, Any] = {
        "config": config.__dict__,
        "servers": servers,
        "elapsed_s": round(elapsed, 1),
        "players": players,
        "connections_peak": stats.connections_peak,
        "reconnects": stats.reconnects,
        "quiet_syncs": stats.quiet_syncs,
        "moves_acknowledged": len(stats.acks),
        "moves_per_second": round(len(stats.acks) / moving, 1) if moving > 0 else 0.0,
        "move_rtt_ms": ms_percentiles(stats.move_rtt),
        "delivery_to_opponent_ms": ms_percentiles(stats.seen_by_opponent),
        "ai_move_ms": {level: ms_percentiles(values)
                       for level, values in sorted(stats.ai_latency.items())},
        "table_ai_move_ms": ms_percentiles(stats.table_ai_latency),
        "table_ai_in_time": table_ai_figures(stats.table_ai_latency, config.table_ai_level),
        "games_started": stats.games_started,
        "games_finished": stats.games_finished,
        "errors": dict(stats.errors.most_common()),
        "hostile_sockets": len(hostiles),
        "hostile": dict(stats.hostile.most_common()),
        "server_errors": None if logs is None else log_errors(logs),
        "client_loop_lag_max_ms": round(stats.loop_lag_max * 1000, 1),
        "client_cpu_s": round(client_cpu, 1),
        "hostile_client_cpu_s": round(hostile_cpu, 1),
        "machine_cpu_busy": round(machine_busy, 2),
        "load_average": os.getloadavg(),
        "consistency": consistency,
        "processes": {
            name: {
                "rss_mib_before": round(before[name]["rss_mib"], 1),
                "rss_mib_peak": round(peak.get(name, after[name])["rss_mib"], 1),
                "rss_mib_after": round(after[name]["rss_mib"], 1),
                "cpu_cores_used": round((after[name]["cpu_s"] - before[name]["cpu_s"])
                                        / max(elapsed, 1e-9), 2),
            }
            for name in server_pids
        },
    }
    daphnes = [n for n in server_pids if n.startswith("daphne")]
    if daphnes and stats.connections_peak:
        grown = sum(report["processes"][n]["rss_mib_peak"] - report["processes"][n][
            "rss_mib_before"] for n in daphnes)
        report["memory_per_connection_kib"] = round(grown * 1024 / stats.connections_peak, 1)
    return report


def ms_percentiles(values: list[float]) -> dict[str, float | int | None]:
    result: dict[str, float | int | None] = {"n": len(values)}
    for p in (50, 95, 99):
        value = percentile(values, p)
        result[f"p{p}"] = None if value is None else round(value * 1000, 1)
    result["max"] = round(max(values) * 1000, 1) if values else None
    return result


def format_report(report: dict[str, Any]) -> str:
    lines = [
        f"players {report['players']}, connections held (peak) {report['connections_peak']}, "
        f"reconnects {report['reconnects']}, run {report['elapsed_s']} s",
        f"quiet waits (20 s without the others' move, then a sync) {report['quiet_syncs']}",
        f"moves acknowledged {report['moves_acknowledged']}, "
        f"{report['moves_per_second']} moves/s",
        f"move round trip (sent -> ok) ms: {fmt(report['move_rtt_ms'])}",
        f"delivery to the opponent (other process) ms: {fmt(report['delivery_to_opponent_ms'])}",
    ]
    for level, figures in report["ai_move_ms"].items():
        lines.append(f"AI level {level} move latency ms: {fmt(figures)}")
    if report["table_ai_move_ms"]["n"]:
        in_time = report["table_ai_in_time"]
        lines.append(f"AI seat at a table (level {in_time['level']}) move latency ms: "
                     f"{fmt(report['table_ai_move_ms'])}; within budget {in_time['budget_ms']} "
                     f"+ 300 = {in_time['limit_ms']} ms: {in_time['within']:.1%}")
    lines.append(f"games started {report['games_started']}, finished "
                 f"{report['games_finished']}")
    lines.append(f"errors: {report['errors'] or 'none'}")
    if report.get("hostile_sockets"):
        lines.append(f"hostile sockets {report['hostile_sockets']} (not in the figures "
                     f"above, which are the honest players'): {report['hostile']}")
    if report.get("server_errors") is not None:
        errors = report["server_errors"]
        lines.append(f"server errors in the servers' logs: {len(errors)}"
                     + (f", e.g. {errors[:3]}" if errors else ""))
    lines.append(f"client: loop lag max {report['client_loop_lag_max_ms']} ms, "
                 f"CPU {report['client_cpu_s']} s (hostile client "
                 f"{report['hostile_client_cpu_s']} s); machine CPU busy "
                 f"{report['machine_cpu_busy']:.0%}, load average "
                 f"{' '.join(f'{x:.1f}' for x in report['load_average'])}")
    for name, figures in report["processes"].items():
        lines.append(
            f"{name}: RSS {figures['rss_mib_before']} -> peak {figures['rss_mib_peak']} -> "
            f"after {figures['rss_mib_after']} MiB, {figures['cpu_cores_used']} cores"
        )
    if "memory_per_connection_kib" in report:
        lines.append(f"memory per connection: {report['memory_per_connection_kib']} KiB")
    c = report["consistency"]
    lines.append(
        f"consistency: {'OK' if c['ok'] else 'FAILED'} - {c['acknowledged_moves']} acknowledged "
        f"(+{c['applied_while_unacknowledged']} applied while in flight), lost {c['lost']}, "
        f"duplicated {c['duplicated']}, wrong {c['wrong']}; {c['matches_checked']} matches, "
        f"gaps {c['matches_with_gaps']}, bad replays {c['bad_replays']}; "
        f"{c['finished_games_checked']} finished games, results not replayed "
        f"{c['results_not_replayed']}"
    )
    if not c["ok"]:
        lines.append(f"  examples: {c['examples']}")
    return "\n".join(lines)


def fmt(figures: dict[str, Any]) -> str:
    return (f"p50 {figures['p50']}, p95 {figures['p95']}, p99 {figures['p99']}, "
            f"max {figures['max']} (n={figures['n']})")


# --- the command ------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duels", type=int, default=10)
    parser.add_argument("--ai-games", type=int, default=0)
    parser.add_argument("--ai-level", type=int, action="append", dest="ai_levels")
    parser.add_argument("--tables", type=int, default=0, help="tables of four people")
    parser.add_argument("--ai-tables", type=int, default=0,
                        help="tables of one person and three AI seats")
    parser.add_argument("--table-ai-level", type=int, default=3,
                        help="the level of the AI seats at --ai-tables")
    parser.add_argument("--duration", type=float, default=20.0,
                        help="seconds of play measured (after the ramp)")
    parser.add_argument("--hostile", type=float, default=0.0, metavar="SHARE",
                        help="the share of all sockets that are hostile (0.1: one in ten sends "
                             "junk: bad JSON, wrong types, floods, huge frames, unknown routes)")
    parser.add_argument("--hostile-nice", type=int, default=0, metavar="N",
                        help="run the hostile client process at niceness N (19: the lowest "
                             "CPU priority), a stand-in for an attacker on another machine: "
                             "on one machine its junk is made on the cores that time the "
                             "honest players and run the servers, which keep their normal "
                             "priority (default 0: the same priority as everything else)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the players connect (not measured)")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 6.0),
                        metavar=("MIN", "MAX"), help="seconds a bot thinks per move")
    parser.add_argument("--clock", default="600+5", help="'initial+increment' s, or 'none'")
    parser.add_argument("--casual", action="store_true", help="unrated duels")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes to start")
    parser.add_argument("--port", type=int, default=None,
                        help="the first daphne's port, the next ones after it (default: free "
                             "ports the system picks)")
    parser.add_argument("--url", action="append", help="use running servers instead")
    parser.add_argument("--worker-args", default="--pool=solo --concurrency=1",
                        help="Celery worker options (default: one worker process)")
    parser.add_argument("--no-worker", action="store_true")
    parser.add_argument("--client-procs", type=int, default=1)
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/yourtrumps_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--conn-max-age", default="60",
                        help="DB_CONN_MAX_AGE of the servers (seconds; 0: a connection per query)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the report to this file")
    return parser.parse_args(argv)


def config_of(args: argparse.Namespace) -> Config:
    return Config(
        duels=args.duels, ai_games=args.ai_games, ai_levels=args.ai_levels or [1],
        duration=args.duration, think_min=args.think[0], think_max=args.think[1],
        clock=None if args.clock == "none" else args.clock, rated=not args.casual,
        client_procs=args.client_procs, seed=args.seed, ramp=args.ramp, hostile=args.hostile,
        hostile_nice=args.hostile_nice,
        tables=args.tables, ai_tables=args.ai_tables, table_ai_level=args.table_ai_level,
    )


def prepare_environment(args: argparse.Namespace) -> dict[str, str]:
    env = {
        "DJANGO_SETTINGS_MODULE": "yourtrumps_site.settings",
        "DJANGO_ENV": "production",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "CHANNEL_LAYER_PREFIX": "yt-load",
        "CACHE_KEY_PREFIX": "yt-load",
        "DB_CONN_MAX_AGE": args.conn_max_age,
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        # Every client of the run comes from this machine's one address.
        "WS_MAX_SOCKETS_PER_ADDRESS": "1000000",
    }
    os.environ.update(env)
    return env


def ensure_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    (name,)).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    config = config_of(args)
    with Topology(args) as topology:
        print(f"servers: {', '.join(topology.servers)} (logs in {topology.logs})")
        report = run_load(config, topology.servers, topology.pids,
                          logs=None if args.url else topology.logs)
        report["process_logs"] = str(topology.logs)
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=str))
    return 0 if report["consistency"]["ok"] else 1


class Topology:
    """The servers of a run: started here (and stopped at the end) unless `--url` is given.
    Entering it also prepares the database and configures Django in this process."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.env = prepare_environment(args)
        self.started: list[Any] = []
        self.pids: dict[str, int] = {}
        self.servers: list[str] = []
        self.logs = Path(tempfile.mkdtemp(prefix="yourtrumps-load-"))

    def __enter__(self) -> Topology:
        args = self.args
        ensure_database(args.database_url)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        if args.url:
            self.servers = list(args.url)
            return self
        import redis

        from tests.support.processes import start_daphne

        redis.Redis.from_url(args.redis_url).flushdb()
        if ended := end_earlier_runs():
            print(f"aborted {ended} games an earlier run left unfinished")
        try:
            for index in range(args.servers):
                server = start_daphne(self.env, self.logs,
                                      None if args.port is None else args.port + index)
                self.started.append(server)
                self.servers.append(str(server.extra["url"]))
                self.pids[server.name] = server.process.pid
            if not args.no_worker:
                worker = start_worker(self.env, self.logs, args.worker_args.split())
                self.started.append(worker)
                wait_for_worker(worker)
                self.pids["celery-worker"] = worker.process.pid
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for process in self.started:
            process.stop()
        self.started = []

    def __exit__(self, *exc: object) -> None:
        self.stop()


def end_earlier_runs() -> int:
    """Abort the games an earlier run left unfinished in this database: their clocks would
    run out during this run, and the deadline watch's work on them would be measured too."""
    from django.utils import timezone

    from games.play.models import Match, Result, Status, TerminationReason

    return Match.objects.filter(status__in=(Status.TRUMPS, Status.PLAYING)).update(
        status=Status.ABORTED, result=Result.ABORTED, termination=TerminationReason.ABORTED,
        to_move=None, draw_offer_seat=None, due_at=None, finished_at=timezone.now(),
    )


def wait_for_worker(worker: Any) -> None:
    from yourtrumps_site.celery import app

    for _ in range(120):
        if not worker.alive:
            raise RuntimeError(f"the Celery worker exited:\n{worker.log_tail()}")
        if app.control.ping(timeout=0.5):
            return
    raise RuntimeError(f"the Celery worker never answered:\n{worker.log_tail()}")


def start_worker(env: dict[str, str], logs: Path, options: list[str]) -> Any:
    """A Celery worker like the tests' one, with the pool options of this run."""
    from tests.support.processes import VENV_BIN, ManagedProcess, child_env

    return ManagedProcess(
        name="celery:load",
        args=[str(VENV_BIN / "celery"), "-A", "yourtrumps_site", "worker", *options,
              "--loglevel=WARNING", "--without-gossip", "--without-mingle",
              "--without-heartbeat", "-n", "load@%h"],
        env=child_env(env), log_path=logs / "celery-load.log",
    ).start()
