"""What a load run plays and how: the one set of settings that the set-up, the clients and the
report of a run all read (the command makes it from its options, `tests.load.command`)."""

from __future__ import annotations

from dataclasses import dataclass, field


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
