"""How long from joining a quick-pairing pool to the match page, with two clients.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/matchmaking_latency.py
    python bench/matchmaking_latency.py --rounds 30 --servers 2

It migrates the database it is given, starts `--servers` daphne processes on it (with Redis
between them when `REDIS_URL` is set; one process on the embedded default otherwise), and
each round: two new players open their lobby sockets on different processes, the first
joins the 3+2 pool, then the second; the time is taken from the first join until both
clients have been told of the match, and until both have loaded its page (the figure asked
for). Prints the median and spread of each.
The players and matches it made are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")

import django

django.setup()

import websockets  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from tests.support.processes import database_url, start_daphne  # noqa: E402


def cookie_for(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def lobby(base: str, cookie: str):
    socket = await websockets.connect(
        f"{base.replace('http', 'ws')}/ws/lobby/", origin=base,
        additional_headers={"Cookie": cookie},
    )
    await next_of(socket, "lobby")
    return socket


async def next_of(socket, kind: str) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 20))
        if message["type"] == kind:
            return message


def load(base: str, path: str, cookie: str) -> int:
    request = urllib.request.Request(base + path, headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=20) as response:
        response.read()
        return int(response.status)


async def one_round(bases: list[str], cookies: list[str]) -> tuple[float, float, int]:
    sockets = [await lobby(base, cookie) for base, cookie in zip(bases, cookies, strict=True)]
    try:
        start = time.perf_counter()
        waits = [asyncio.ensure_future(next_of(s, "paired")) for s in sockets]
        for socket in sockets:
            await socket.send(json.dumps({"type": "pool_join", "pool": "3+2"}))
        paired = await asyncio.gather(*waits)
        told = time.perf_counter() - start
        statuses = await asyncio.gather(*[
            asyncio.to_thread(load, base, message["url"], cookie)
            for base, message, cookie in zip(bases, paired, cookies, strict=True)
        ])
        elapsed = time.perf_counter() - start
        assert paired[0]["match_id"] == paired[1]["match_id"], paired
        assert statuses == [200, 200], statuses
        return told, elapsed, paired[0]["match_id"]
    finally:
        for socket in sockets:
            await socket.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--servers", type=int, default=2)
    args = parser.parse_args()
    from django.conf import settings

    servers_wanted = args.servers if settings.REDIS_URL else 1
    call_command("migrate", verbosity=0)
    env = {"DJANGO_SETTINGS_MODULE": os.environ["DJANGO_SETTINGS_MODULE"],
           "DATABASE_URL": database_url(connection.settings_dict)}
    logs = Path(tempfile.mkdtemp(prefix="matchmaking-bench-"))
    servers = [start_daphne(env, logs) for _ in range(servers_wanted)]
    from games.play.models import Match
    from games.play.services import match_abort

    users, match_ids, times, told_times = [], [], [], []
    try:
        bases = [str(server.extra["url"]) for server in servers]
        for _ in range(args.rounds):
            pair = [
                get_user_model().objects.create_user(f"b{uuid.uuid4().hex[:12]}",
                                                     password=uuid.uuid4().hex)
                for _ in range(2)
            ]
            users.extend(pair)
            # The two clients on different processes when there are several.
            told, elapsed, match_id = asyncio.run(one_round(
                [bases[0], bases[-1]], [cookie_for(user) for user in pair]
            ))
            times.append(elapsed)
            told_times.append(told)
            match_ids.append(match_id)
            match_abort(match_id=match_id, seat=0)
    finally:
        for server in servers:
            server.stop()
        Match.objects.filter(pk__in=match_ids).delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
    database = connection.settings_dict["ENGINE"].rsplit(".", 1)[-1]
    layer = "Redis" if settings.REDIS_URL else "in-memory"
    print(f"join pool -> both clients on the match page: {len(times)} rounds, "
          f"{servers_wanted} daphne process(es), {database}, {layer} channel layer")
    for label, values in (("both told of the match", told_times),
                          ("both on the match page", times)):
        ms = sorted(t * 1000 for t in values)
        print(f"{label}: median {statistics.median(ms):.1f} ms, min {ms[0]:.1f} ms, "
              f"max {ms[-1]:.1f} ms, p90 {ms[int(0.9 * (len(ms) - 1))]:.1f} ms")


if __name__ == "__main__":
    main()
