"""Tables of 3-4 in the load tool: four people at a table (`--tables`), or one person and
three AI seats (`--ai-tables`, at `--table-ai-level`), set up through the services like the
duels, every move over a real socket.

The four people of a table sit on the servers in turn, so every move crosses processes. At a
table of one person the AI seats are played by the Celery worker; each AI move's latency is
the time between the states of two consecutive moves as the person's socket receives them
(the AI's task, its thinking and the broadcast), reported against the level's table budget
plus 300 ms: how many AI seats one worker serves in time.
"""

from __future__ import annotations

import random
from typing import Any

WITHIN_BUDGET_MARGIN = 0.3
"""An AI move counts as in time within its level's table budget plus this (seconds)."""


def table_users_needed(tables: int, ai_tables: int) -> int:
    return 4 * tables + ai_tables


def create_table_places(*, tables: int, ai_tables: int, ai_level: int, users: list[Any],
                        servers: list[str], clock: tuple[int | None, int], rated: bool,
                        rng: random.Random) -> list[list[Any]]:
    """The matches of the tables and their places (seat 0 is always a person: it counts the
    game), grouped by match; `users` holds `table_users_needed` fresh users."""
    from games.play import services
    from games.play.services import Player
    from games.play.time_control import TimeControl
    from tests.load.places import Place, rotate
    from tests.load.sessions import session_cookie

    control = TimeControl(clock[0], clock[1])
    groups: list[list[Any]] = []
    for t in range(tables):
        people = users[4 * t: 4 * t + 4]
        match = services.match_create(
            players=[Player(user=u) for u in people], rated=rated and control.timed,
            time_control=control, trumps="".join(rng.sample("SHDC", 4)),
        )
        groups.append([Place(match.pk, seat, session_cookie(user), rotate(servers, t + seat))
                       for seat, user in enumerate(people)])
    for t in range(ai_tables):
        user = users[4 * tables + t]
        match = services.match_create(
            players=[Player(user=user), *(Player(ai_level=ai_level) for _ in range(3))],
            time_control=control, trumps="".join(rng.sample("SHDC", 4)),
        )
        groups.append([Place(match.pk, 0, session_cookie(user), rotate(servers, t),
                             table_ai_level=ai_level)])
    return groups


def table_ai_figures(latencies: list[float], level: int) -> dict[str, Any]:
    """The share of the AI seats' moves in time (budget + margin) and the budget itself."""
    from games.ai import level_budget

    budget = level_budget(level, 4)
    limit = budget + WITHIN_BUDGET_MARGIN
    within = sum(1 for value in latencies if value <= limit)
    return {"level": level, "budget_ms": round(budget * 1000), "limit_ms": round(limit * 1000),
            "within": round(within / len(latencies), 3) if latencies else None}
