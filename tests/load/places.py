"""The games of a load run, set up in the parent through the ORM and the services: users,
sessions and matches for the duels, the games against the AI and the tables, handed to the
clients as places (one a seat), grouped by the game they play."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from games.play.time_control import TimeControl
from tests.load.config import Config
from tests.load.tables import create_table_places, table_users_needed


@dataclass
class Place:
    """What a client process needs to play one seat (plain data: it crosses a fork)."""

    match_id: int
    seat: int
    cookie: str
    servers: list[str]
    ai_level: int | None = None
    table_ai_level: int | None = None  # the AI seats' level, at a table of one person


def create_places(config: Config, servers: list[str]) -> list[list[Place]]:
    """Users, sessions and matches; the places grouped by the game they play."""
    from games.play import services
    from games.play.services import Player
    from tests.load.sessions import create_users, session_cookie
    from tests.load.upkeep import database_settle

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
    database_settle()
    return groups


def rotate(servers: list[str], by: int) -> list[str]:
    by %= len(servers)
    return servers[by:] + servers[:by]
