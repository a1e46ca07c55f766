"""Many bots on the Bot API at once: the memory each open stream costs the servers, and a
move's round trip through the API.

    DATABASE_URL=postgres://... REDIS_URL=redis://... CHANNEL_LAYER_PREFIX=... \\
        python bench/api_streams.py --bots 200 --servers 2 --moves 10

It migrates the database it is given, makes `--bots` bot accounts with tokens, pairs them in
untimed duels (trumps given, so play starts at once), and starts `--servers` daphne
processes on free local ports (the production topology's web tier; Redis carries the events
between them). Each bot opens its event stream and its game's stream, on the servers in
turn; once all are open it reads each server's resident memory (RSS, from /proc) against its
memory before, so the figure is the memory per open stream. Then, `--moves` times over every
game, after thinking (`--think`), the bot to move posts the first legal move its stream
showed it: the round trip is from sending the POST to its answer, the delivery from sending
it to the new state arriving on the opponent's game stream. It prints p50, p99 and max of
both, and the load (`/proc/loadavg`) when it ran. The accounts and games it made are
deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from accounts.models import TokenScope, User  # noqa: E402
from accounts.tokens import token_create  # noqa: E402
from games.play import services  # noqa: E402
from games.play.models import Match  # noqa: E402
from games.play.services import Player  # noqa: E402

PREFIX = "apibench"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def daphne_servers(count: int) -> Iterator[tuple[list[subprocess.Popen[bytes]], list[int]]]:
    """``count`` daphne processes on free local ports (the production topology's web tier;
    Redis carries the events between them), answering once started; stopped on leaving."""
    env = {**os.environ, "API_REQUEST_RATE_LIMIT": "1000000"}
    servers: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    try:
        for _ in range(count):
            port = free_port()
            servers.append(subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                 "yourtrumps_site.asgi:application"], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            ports.append(port)
        for port in ports:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
                    break
                except OSError:
                    time.sleep(0.2)
        yield servers, ports
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(10)


def rss_kib(pid: int) -> int:
    """The resident memory of a process and its children (daphne runs as one)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Stream:
    """An NDJSON stream over a raw HTTP/1.1 connection (chunked), read into a queue."""

    def __init__(self, port: int, path: str, token: str) -> None:
        self.port, self.path, self.token = port, path, token
        self.lines: asyncio.Queue[dict] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.opened = asyncio.Event()

    async def open(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write((f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Authorization: Bearer {self.token}\r\n\r\n").encode())
        await writer.drain()
        status = await reader.readline()
        assert b" 200 " in status, status
        while (await reader.readline()).strip():
            pass  # the headers
        self.writer = writer
        self.task = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffer = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            buffer += await reader.readexactly(size)
            await reader.readexactly(2)
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.strip():
                    self.lines.put_nowait(json.loads(line))
                    self.opened.set()

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()


async def post(port: int, path: str, token: str) -> tuple[int, dict]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
                  f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _sep, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body or b"{}")


async def next_state(stream: Stream, after_ply: int) -> dict:
    while True:
        state = await stream.lines.get()
        if state.get("ply", -1) > after_ply or state.get("status") in ("finished", "aborted"):
            return state


async def run(args: argparse.Namespace, ports: list[int], pids: list[int],
              bots: list[tuple[str, int]], games: list[int]) -> None:
    # Each server loads the API's code with its first calls: warm them up first.
    for port in ports:
        warm = [Stream(port, "/api/stream/event", bots[0][0]),
                Stream(port, f"/api/bot/game/stream/{bots[0][1]}", bots[0][0])]
        for stream in warm:
            await stream.open()
        await asyncio.gather(*(stream.opened.wait() for stream in warm))
        for stream in warm:
            stream.close()
    await asyncio.sleep(2)
    before = [rss_kib(pid) for pid in pids]
    events, streams = [], {}
    for index, (token, match_id) in enumerate(bots):
        port = ports[index % len(ports)]
        event = Stream(port, "/api/stream/event", token)
        game = Stream(ports[(index + 1) % len(ports)], f"/api/bot/game/stream/{match_id}",
                      token)
        await event.open()
        await game.open()
        events.append(event)
        streams[index] = game
    await asyncio.gather(*(s.opened.wait() for s in [*events, *streams.values()]))
    await asyncio.sleep(3)  # the servers settle
    after = [rss_kib(pid) for pid in pids]
    open_streams = 2 * len(bots)
    grown = sum(after) - sum(before)
    print(f"{open_streams} streams open ({len(bots)} event, {len(bots)} game) on "
          f"{len(ports)} servers: RSS {sum(before) / 1024:.0f} -> {sum(after) / 1024:.0f} MiB, "
          f"{grown / open_streams:.1f} KiB per stream")

    states = {}
    for index in streams:
        states[index] = await streams[index].lines.get()  # gameFull
    trips: list[float] = []
    deliveries: list[float] = []

    rng = random.Random(1)

    async def play(pair: int) -> None:
        first, second = 2 * pair, 2 * pair + 1
        for _ in range(args.moves):
            await asyncio.sleep(rng.uniform(0, 2 * args.think))
            state = states[first]
            if state["status"] != "playing":
                return
            mover = first if state["to_move"] == state["you"] else second
            other = second if mover == first else first
            view = states[mover]
            move = view["legal_moves"][0]
            port = ports[mover % len(ports)]
            sent = time.perf_counter()
            status, _answer = await post(
                port, f"/api/bot/game/{games[pair]}/move/{move}?ply={view['ply']}",
                bots[mover][0])
            trips.append(time.perf_counter() - sent)
            assert status == 200, (status, _answer)
            states[other] = await next_state(streams[other], view["ply"])
            deliveries.append(time.perf_counter() - sent)
            states[mover] = await next_state(streams[mover], view["ply"])

    began = time.perf_counter()
    await asyncio.gather(*(play(pair) for pair in range(len(games))))
    took = time.perf_counter() - began
    ms = [t * 1000 for t in trips]
    dms = [t * 1000 for t in deliveries]
    print(f"{len(ms)} moves in {took:.1f} s ({len(ms) / took:.0f}/s)")
    print(f"move round trip (POST to answer): p50 {percentile(ms, .5):.0f} ms, "
          f"p99 {percentile(ms, .99):.0f} ms, max {max(ms):.0f} ms, "
          f"mean {statistics.mean(ms):.0f} ms")
    print(f"to the opponent's game stream:    p50 {percentile(dms, .5):.0f} ms, "
          f"p99 {percentile(dms, .99):.0f} ms, max {max(dms):.0f} ms")
    for stream in [*events, *streams.values()]:
        stream.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=200, help="bots (an even number)")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes")
    parser.add_argument("--moves", type=int, default=10, help="moves played in each game")
    parser.add_argument("--think", type=float, default=5.0,
                        help="mean seconds a bot thinks before its move (uniform, 0 to twice)")
    args = parser.parse_args()
    if args.bots < 2 or args.bots % 2 or args.servers < 1 or args.moves < 1:
        parser.error("--bots: an even number of at least 2; --servers, --moves: at least 1")
    call_command("migrate", verbosity=0)
    User.objects.filter(username__startswith=PREFIX).delete()
    bots: list[tuple[str, int]] = []
    games: list[int] = []
    users = []
    for number in range(args.bots):
        user = User.objects.create_user(f"{PREFIX}{number}", password=None)
        user.is_bot = True
        user.save(update_fields=["is_bot"])
        users.append(user)
    for pair in range(args.bots // 2):
        first, second = users[2 * pair], users[2 * pair + 1]
        match = services.match_create(players=[Player(user=first), Player(user=second)],
                                      trumps="SH", dealer=1)
        games.append(match.pk)
        for user in (first, second):
            text = token_create(user=user, name="bench", scopes=[TokenScope.BOT]).text
            bots.append((text, match.pk))
    try:
        with daphne_servers(args.servers) as (servers, ports):
            asyncio.run(run(args, ports, [server.pid for server in servers], bots, games))
            print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")
    finally:
        Match.objects.filter(pk__in=games).delete()
        User.objects.filter(username__startswith=PREFIX).delete()


if __name__ == "__main__":
    main()
