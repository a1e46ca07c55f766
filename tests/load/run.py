"""A load run on servers that are running: set up the games and the hostile sockets, play them
(a ramp, then the measured time) while the servers' memory is sampled, check the database, and
hand what was measured to the report. The command, the smoke tests and the bench's capacity
sweeps each start one this way."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

from tests.load.client_processes import run_clients
from tests.load.config import Config
from tests.load.consistency import check_consistency, matches_played
from tests.load.places import create_places
from tests.load.process_figures import machine_cpu, proc_figures
from tests.load.report import build_report
from tests.load.upkeep import Vacuuming


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
    with Vacuuming() as vacuuming:
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
    return build_report(
        config, servers, stats, players=honest,
        hostile_sockets=len(hostiles), server_errors=None if logs is None else log_errors(logs),
        elapsed=elapsed, client_cpu=client_cpu, hostile_cpu=hostile_cpu,
        machine_busy=machine_busy, upkeep=vacuuming.describe(), consistency=consistency,
        before=before, peak=peak, after=after,
    )
