"""The report of a load run: its figures (latencies at p50/p95/p99 in ms, moves per second,
errors, the hostile sockets' tally, the memory and CPU of each server process, the consistency
check) made from what the run measured, as a dict (what `--json` writes) and as printed lines."""

from __future__ import annotations

import os
from typing import Any

from tests.load.config import Config
from tests.load.stats import Stats, percentile, slowest_seconds
from tests.load.tables import table_ai_figures

SLOW_SECOND_P99 = 0.150
"""A second of the run whose moves' round trip p99 is above this counts as slow."""

ProcessFigures = dict[str, dict[str, float]]
"""`tests.load.process_figures.proc_figures` of each server process, by its name."""


def build_report(config: Config, servers: list[str], stats: Stats, *, players: int,
                 hostile_sockets: int, server_errors: list[str] | None, elapsed: float,
                 client_cpu: float, hostile_cpu: float, machine_busy: float, upkeep: str,
                 consistency: dict[str, Any], before: ProcessFigures, peak: ProcessFigures,
                 after: ProcessFigures) -> dict[str, Any]:
    """The report as a dict; the server processes' figures `before` the play, at their `peak`
    memory while it went on (where sampled) and `after` it."""
    moving = (stats.last_move_at or 0) - (stats.first_move_at or 0)
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
        "move_rtt_seconds": slowest_seconds(stats.move_sent_at, stats.move_rtt,
                                            over=SLOW_SECOND_P99),
        "delivery_to_opponent_ms": ms_percentiles(stats.seen_by_opponent),
        "ai_move_ms": {level: ms_percentiles(values)
                       for level, values in sorted(stats.ai_latency.items())},
        "table_ai_move_ms": ms_percentiles(stats.table_ai_latency),
        "table_ai_in_time": table_ai_figures(stats.table_ai_latency, config.table_ai_level),
        "games_started": stats.games_started,
        "games_finished": stats.games_finished,
        "errors": dict(stats.errors.most_common()),
        "hostile_sockets": hostile_sockets,
        "hostile": dict(stats.hostile.most_common()),
        "server_errors": server_errors,
        "client_loop_lag_max_ms": round(max(stats.loop_lags, default=0.0) * 1000, 1),
        "client_loop_lag_ms": ms_percentiles(stats.loop_lags),
        "client_gc_pause_ms": ms_percentiles(stats.gc_pauses),
        "client_cpu_s": round(client_cpu, 1),
        "hostile_client_cpu_s": round(hostile_cpu, 1),
        "machine_cpu_busy": round(machine_busy, 2),
        "database_upkeep": upkeep,
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
            for name in before
        },
    }
    daphnes = [n for n in before if n.startswith("daphne")]
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
        f"  seconds with a p99 over {SLOW_SECOND_P99 * 1000:.0f} ms: "
        f"{report['move_rtt_seconds']['over']} of {report['move_rtt_seconds']['seconds']}; "
        f"the worst (second, p99 ms, moves): {report['move_rtt_seconds']['worst']}",
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
    lines.append(f"client loop lag ms: {fmt(report['client_loop_lag_ms'])}; "
                 f"client collections ms: {fmt(report['client_gc_pause_ms'])}")
    lines.append(f"client: loop lag max {report['client_loop_lag_max_ms']} ms, "
                 f"CPU {report['client_cpu_s']} s (hostile client "
                 f"{report['hostile_client_cpu_s']} s); machine CPU busy "
                 f"{report['machine_cpu_busy']:.0%}, load average "
                 f"{' '.join(f'{x:.1f}' for x in report['load_average'])}")
    lines.append(f"database: {report['database_upkeep']}")
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
