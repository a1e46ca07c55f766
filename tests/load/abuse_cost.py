"""What a hostile socket costs a server: CPU per refused handshake and per junk frame.

    python -m tests.load.abuse_cost --handshakes 3000 --frames 3000 --port 8262

It starts one daphne process of the production topology (`DJANGO_ENV=production`, on its own
database and Redis database index, as `python -m tests.load` does), and measures that
process's CPU time (user + system, from /proc) over two phases:

- **refused handshakes**: a session is closed for junk (4008), which starts its cool-down;
  then `--concurrency` clients open sockets with its cookie again and again, every one
  refused with HTTP 403, as the hostile clients of the load tool do;
- **junk frames**: `--sockets` sockets of signed-in spectators on a match each send frames the
  server cannot understand (one fewer than close the socket), and wait for every answer.

The figures are the server's CPU milliseconds per handshake and per frame; the clients run
in this process, on the same cores, so the wall time is indicative only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

JUNK = ["not json", "[1, 2]", json.dumps({"type": "dance"}), json.dumps({"type": "move"})]


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.load.abuse_cost", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--handshakes", type=int, default=3000)
    parser.add_argument("--frames", type=int, default=3000, help="junk frames in all")
    parser.add_argument("--sockets", type=int, default=100,
                        help="the sockets that send the junk frames")
    parser.add_argument("--concurrency", type=int, default=20,
                        help="handshakes in flight at once")
    parser.add_argument("--port", type=int, default=None, help="the server's port")
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/yourtrumps_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--conn-max-age", default="60")
    parser.add_argument("--json", help="also write the figures to this file")
    return parser.parse_args(argv)


def server_cpu(pid: int) -> float:
    from tests.load.process_figures import proc_figures

    return proc_figures(pid)["cpu_s"]


async def refused_handshakes(url: str, cookie: str, count: int, concurrency: int) -> dict[str, int]:
    from tests.load.client import connect

    outcomes: dict[str, int] = {}
    left = iter(range(count))

    async def one_client() -> None:
        for _ in left:
            try:
                connection = await connect(url, "/ws/site/", cookie)
            except websockets.exceptions.InvalidStatus as refused:
                key = f"refused {refused.response.status_code}"
            else:
                key = "opened"
                await connection.close()
            outcomes[key] = outcomes.get(key, 0) + 1

    await asyncio.gather(*(one_client() for _ in range(concurrency)))
    return outcomes


async def start_cool_down(url: str, cookie: str, bad_frames: int) -> int | None:
    from tests.load.client import connect

    connection = await connect(url, "/ws/site/", cookie)
    for index in range(bad_frames):
        await connection.send(JUNK[index % len(JUNK)])
    try:
        async for _reply in connection:
            pass
    except websockets.exceptions.ConnectionClosed:
        pass
    return connection.close_code


async def junk_sockets(url: str, match_id: int, cookies: list[str], per_socket: int,
                       pid: int) -> tuple[float, int]:
    """Open the sockets, then (measured) send each its junk and read the answers."""
    from tests.load.client import MatchClient

    clients = [await MatchClient.open(url, match_id, cookie) for cookie in cookies]
    before = server_cpu(pid)

    async def one(client: Any) -> int:
        for index in range(per_socket):
            await client.send(JUNK[index % len(JUNK)])
        answered = 0
        while answered < per_socket:
            if (await client.recv())["type"] == "error":
                answered += 1
        return answered

    answered = sum(await asyncio.gather(*(one(client) for client in clients)))
    used = server_cpu(pid) - before
    for client in clients:
        await client.close()
    return used, answered


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from tests.load.topology import ensure_database, prepare_environment

    env = prepare_environment(args)
    env["WS_ABUSE_COOLDOWN_SECONDS"] = "3600"  # longer than the phase, whatever its pace
    # Each refusal at once: a held one costs the same CPU (a timer more), only later.
    env["WS_REFUSAL_HOLD_SECONDS"] = "0"
    ensure_database(args.database_url)
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.core.management import call_command

    from games.play import services
    from games.play.services import Player
    from tests.load.sessions import create_users, session_cookie
    from tests.support.processes import start_daphne

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()
    logs = Path(tempfile.mkdtemp(prefix="yourtrumps-abuse-"))
    server = start_daphne(env, logs, args.port)
    try:
        assert server.process is not None
        pid, url = server.process.pid, str(server.extra["url"])
        per_socket = max(1, int(settings.WS_MAX_BAD_FRAMES) - 1)
        sockets = max(1, min(args.sockets, args.frames // per_socket))
        import secrets

        users = create_users(3 + sockets, f"abuse{secrets.token_hex(3)}-")
        match = services.match_create(players=[Player(user=users[0]), Player(user=users[1])],
                                      trumps="SH")
        cookie = session_cookie(users[2])
        closed = asyncio.run(start_cool_down(url, cookie, int(settings.WS_MAX_BAD_FRAMES)))

        before, began = server_cpu(pid), time.monotonic()
        outcomes = asyncio.run(refused_handshakes(url, cookie, args.handshakes,
                                                  args.concurrency))
        handshake_cpu, handshake_wall = server_cpu(pid) - before, time.monotonic() - began

        cookies = [session_cookie(user) for user in users[3:]]
        frame_cpu, frames = asyncio.run(junk_sockets(url, match.pk, cookies, per_socket, pid))
    finally:
        server.stop()
    report = {
        "cool_down_started_by_close": closed,
        "handshakes": outcomes,
        "server_cpu_ms_per_refused_handshake": round(
            1000 * handshake_cpu / max(args.handshakes, 1), 3),
        "handshakes_per_second_wall": round(args.handshakes / max(handshake_wall, 1e-9), 1),
        "junk_frames_answered": frames,
        "server_cpu_ms_per_junk_frame": round(1000 * frame_cpu / max(frames, 1), 3),
        "server_log": str(logs),
    }
    print(json.dumps(report, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0 if outcomes.get("opened", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
