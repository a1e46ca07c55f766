"""What the load clients count: latencies, acknowledged moves, errors, connections."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


def percentile(values: list[float], p: float) -> float | None:
    """The p-th percentile (nearest rank) of `values`, or None if there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def slowest_seconds(sent_at: list[float], values: list[float], *, over: float,
                    worst: int = 6) -> dict[str, Any]:
    """The run cut into seconds by when each value's move was sent: how many seconds had a p99
    above `over`, and the `worst` of them (seconds from the first, their p99 and count), which
    tell a steady queue from bursts and their period."""
    if not values:
        return {"seconds": 0, "over": 0, "worst": []}
    start = min(sent_at)
    seconds: dict[int, list[float]] = {}
    for at, value in zip(sent_at, values, strict=True):
        seconds.setdefault(int(at - start), []).append(value)
    p99 = {second: percentile(vals, 99) or 0.0 for second, vals in seconds.items()}
    ranked = sorted(p99, key=lambda second: p99[second], reverse=True)[:worst]
    return {"seconds": len(seconds), "over": sum(v > over for v in p99.values()),
            "worst": [(second, round(p99[second] * 1000), len(seconds[second]))
                      for second in sorted(ranked)]}


@dataclass
class Stats:
    """Per client process; merged in the parent. Times are in seconds."""

    move_rtt: list[float] = field(default_factory=list)  # move sent -> its "ok"
    move_sent_at: list[float] = field(default_factory=list)  # time.monotonic() of each above
    seen_by_opponent: list[float] = field(default_factory=list)  # move sent -> other's state
    ai_latency: dict[int, list[float]] = field(default_factory=dict)  # level -> latencies
    table_ai_latency: list[float] = field(default_factory=list)  # an AI seat's move at a table
    acks: list[tuple[int, int, int, str]] = field(default_factory=list)  # match, ply, seat, move
    applied_unacked: list[tuple[int, int, int, str]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    hostile: Counter[str] = field(default_factory=Counter)  # what the hostile sockets met
    games_finished: int = 0
    games_started: int = 0
    connections_open: int = 0
    connections_peak: int = 0
    reconnects: int = 0
    quiet_syncs: int = 0  # waits for the others' move that needed a `sync` to go on
    loop_lags: list[float] = field(default_factory=list)  # the client loop's lag, every 0.1 s
    gc_pauses: list[float] = field(default_factory=list)  # the client's collections
    first_move_at: float | None = None
    last_move_at: float | None = None

    def opened(self) -> None:
        self.connections_open += 1
        self.connections_peak = max(self.connections_peak, self.connections_open)

    def closed(self) -> None:
        self.connections_open -= 1

    def moved(self, now: float) -> None:
        if self.first_move_at is None:
            self.first_move_at = now
        self.last_move_at = now

    def merge(self, other: Stats) -> None:
        self.move_rtt += other.move_rtt
        self.move_sent_at += other.move_sent_at
        self.seen_by_opponent += other.seen_by_opponent
        self.table_ai_latency += other.table_ai_latency
        for level, values in other.ai_latency.items():
            self.ai_latency.setdefault(level, []).extend(values)
        self.acks += other.acks
        self.applied_unacked += other.applied_unacked
        self.errors.update(other.errors)
        self.hostile.update(other.hostile)
        self.games_finished += other.games_finished
        self.games_started += other.games_started
        self.connections_open += other.connections_open
        self.connections_peak += other.connections_peak
        self.reconnects += other.reconnects
        self.quiet_syncs += other.quiet_syncs
        self.loop_lags += other.loop_lags
        self.gc_pauses += other.gc_pauses
        for name, pick in (("first_move_at", min), ("last_move_at", max)):
            values = [v for v in (getattr(self, name), getattr(other, name)) if v is not None]
            setattr(self, name, pick(values) if values else None)
