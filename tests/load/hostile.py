"""Hostile clients for the load tool (`--hostile FRACTION`) and the fuzz tests: sockets that
send junk among the honest players.

Each hostile socket belongs to a user of its own (never a seated player, so that nothing it
sends can be an action in a game the consistency check follows) and opens, again and again
until the run ends, one of: a match socket of a running duel (as a spectator), the lobby, the
site socket, or a path that matches no route. On it, it sends `hostile_frame`s (bad JSON,
wrong types, deep nesting, unknown types, binary frames), now and then a burst (a flood: the
server closes it with 4429), a frame too big (4009) or one over daphne's 1 MiB. A close code
1011 (a consumer that crashed) is counted as a server error; so is every traceback or ERROR
line in the servers' logs (`log_errors`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import string
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websockets

KNOWN_TYPES = ["move", "trump", "resign", "abort", "draw_offer", "draw_accept",
               "draw_decline", "claim_victory", "rematch", "sync", "announce", "pool_join",
               "seek_create", "seek_accept", "seek_cancel", "pool_leave"]
ODD_VALUES = [None, True, False, 0, -1, 1.5, 10**30, float("nan"), float("inf"), "", "x" * 300,
              [], {}, [1, [2, [3]]], {"a": {"b": None}}, "\u0000", "\ud800", "9H", "+3",
              "QH-7D", "🂡" * 5, -(10**6)]
UNKNOWN_PATHS = ["/ws/nowhere/", "/ws/match/99999999999999999999999/", "/ws/match/²/",
                 "/ws/match/-1/", "/ws/lobby/x/", "/ws/"]


def random_text(rng: random.Random, size: int) -> str:
    alphabet = string.printable + "{}[]\":,\\\u00e9\u0416\u4e2d\U0001f0a1"
    return "".join(rng.choice(alphabet) for _ in range(size))


def hostile_frame(rng: random.Random, ply: int) -> str | bytes:
    """One frame that must not change a match: never a valid action of a player."""
    kind = rng.randrange(14)
    if kind == 0:
        return random_text(rng, rng.randrange(0, 200))
    if kind == 1:
        return rng.randbytes(rng.randrange(0, 300))  # a binary frame
    if kind == 2:  # truncated or mangled JSON of a real message
        text = json.dumps({"type": "move", "move": "QH-7D", "ply": ply})
        cut = rng.randrange(len(text))
        return text[:cut] + random_text(rng, rng.randrange(3))
    if kind == 3:
        return json.dumps(rng.choice(ODD_VALUES))  # valid JSON, not an object
    if kind == 4:  # unknown or mistyped `type`
        return json.dumps({"type": rng.choice([*ODD_VALUES, "dance", "MOVE", "move ", "sync2"])})
    if kind == 5:  # a known type with wrong fields or values
        message = {"type": rng.choice(KNOWN_TYPES)}
        for _ in range(rng.randrange(1, 4)):
            message[rng.choice(["move", "ply", "suit", "text", "extra", "type2", "pool", "id"])
                    ] = rng.choice(ODD_VALUES)
        message["unexpected"] = 1  # extra fields are refused: never a valid action
        return json.dumps(message)
    if kind == 6:  # a move at a wrong ply (stale or future): refused, nothing changes
        wrong = rng.choice([ply + 1, ply + 7, max(0, ply - 1) if ply else ply + 2, 99_999])
        return json.dumps({"type": "move", "move": rng.choice(["9H", "+3", "QH-7D", "6S"]),
                           "ply": wrong})
    if kind == 7:  # deep nesting
        depth = rng.choice([50, 900, 1500, 3000, 8000])
        return rng.choice("[{") * depth if rng.random() < 0.5 else "[" * depth + "]" * depth
    if kind == 8 and rng.random() < 0.2:  # a huge frame (it closes the socket: rarer)
        return json.dumps({"type": "sync", "pad": "x" * rng.choice([2_100, 20_000, 200_000])})
    if kind == 9:  # big numbers and odd literals
        return rng.choice(['{"type":"move","move":"9H","ply":' + "9" * 5000 + "}",
                           '{"type":"move","move":"9H","ply":NaN}',
                           '{"type":"move","move":"9H","ply":-Infinity}',
                           '{"type":"move","move":"9H","ply":1e999}',
                           '{"type":"trump","suit":"S","suit":"X"}'])
    if kind == 10:  # bad unicode escapes and control characters
        return rng.choice(['{"type":"\\ud800"}', '{"type":"move","move":"\\udfff\\ud800","ply":0}',
                           '{"type":"\\u0000sync"}', "\x00\x01\x02", '"\\x"'])
    if kind == 11:
        return json.dumps({"type": "trump", "suit": rng.choice(["s", "X", "SS", "", "♠", 1])})
    if kind == 12:
        return ""
    return json.dumps({"type": "sync"})  # valid: answered with the state, changes nothing


@dataclass
class HostilePlace:
    """One hostile socket: the paths it may open, its session cookie, its server."""

    paths: list[str]
    cookie: str
    server: str


def create_hostiles(count: int, match_ids: list[int], servers: list[str],
                    seed: int) -> list[HostilePlace]:
    """`count` hostile sockets, each with a user of its own (through the ORM)."""
    from tests.load.sessions import create_users, session_cookie

    if count <= 0:
        return []
    rng = random.Random(seed)
    users = create_users(count, f"hostile{secrets.token_hex(3)}-")  # new names every run
    places = []
    for index, user in enumerate(users):
        match_path = f"/ws/match/{rng.choice(match_ids)}/" if match_ids else "/ws/site/"
        places.append(HostilePlace(
            paths=[match_path, match_path, "/ws/lobby/", "/ws/site/", rng.choice(UNKNOWN_PATHS)],
            cookie=session_cookie(user), server=servers[index % len(servers)]))
    return places


async def run_hostile(place: HostilePlace, stop_at: float, rng: random.Random,
                      tally: Counter[str]) -> None:
    """Open sockets and send junk until `stop_at`."""
    from tests.load.client import connect

    while time.monotonic() < stop_at:
        path = rng.choice(place.paths)
        try:
            connection = await connect(place.server, path, place.cookie, max_size=None)
        except websockets.exceptions.InvalidStatus as refused:
            tally[f"handshake refused {refused.response.status_code}"] += 1
            await asyncio.sleep(rng.uniform(0.5, 2))
            continue
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            tally["connect failed"] += 1
            await asyncio.sleep(1)
            continue
        tally["sockets opened"] += 1
        reader = asyncio.create_task(_read(connection, tally))
        try:
            while time.monotonic() < stop_at and not reader.done():
                roll = rng.random()
                if roll < 0.02:  # a flood
                    for _ in range(200):
                        await connection.send(hostile_frame(rng, 0))
                    tally["frames sent"] += 200
                elif roll < 0.03:
                    await connection.send("x" * (1024 * 1024 + 10))  # past daphne's limit
                    tally["frames sent"] += 1
                else:
                    await connection.send(hostile_frame(rng, 0))
                    tally["frames sent"] += 1
                await asyncio.sleep(rng.uniform(0.05, 0.4))
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), 5)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader, 5)
            code = connection.close_code
            tally[f"closed {code}"] += 1
            if code == 1011:
                tally["server errors (close 1011)"] += 1


async def _read(connection: Any, tally: Counter[str]) -> None:
    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
        async for _text in connection:
            tally["replies"] += 1


def log_errors(folder: Path) -> list[str]:
    """The lines of the servers' and workers' logs that tell of a server error."""
    found = []
    for log in sorted(folder.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if "Traceback" in line or " ERROR " in line or "Exception" in line:
                found.append(f"{log.name}: {line[:200]}")
    return found
