"""What a broadcast costs the server: its CPU per move of a duel that 50 spectators watch.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/broadcast_cost.py --moves 300

It starts one daphne process of the production topology (`DJANGO_ENV=production`, on the
database and the Redis database index it is given), makes ranked 10+5 duels one after another,
and for each opens the two players' match sockets and `--spectators` sockets of anonymous
spectators. The players play the legal moves the server sends them, one move at a time: each
move waits until every socket of the match has its new state. The figure is that server
process's CPU time (user + system, from /proc) over the moves, divided by the moves: the move
itself, its broadcast through Redis and the state rendered and sent to every socket. Opening
and closing the sockets is not counted. The clients run in this process, on the same cores,
so the wall time is indicative only. The players and matches it made are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves to play in all")
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=None, help="the server's port")
    parser.add_argument("--database-url", default=os.environ.get(
        "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/yourtrumps_load"))
    parser.add_argument("--redis-url",
                        default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/6"))
    parser.add_argument("--conn-max-age", default="60")
    args = parser.parse_args(argv)
    if args.moves < 1 or args.spectators < 0:
        parser.error("--moves must be at least 1 and --spectators at least 0")
    return args


async def play_duel(url: str, match_id: int, cookies: list[str], spectators: int,
                    moves_left: int, rng: random.Random, pid: int) -> tuple[int, float]:
    """Play one duel to its end (or `moves_left` moves): the moves played and the server's
    CPU seconds over them."""
    from tests.load.client import MatchClient
    from tests.load.process_figures import proc_figures

    players = [await MatchClient.open(url, match_id, cookie) for cookie in cookies]
    watchers = [await MatchClient.open(url, match_id) for _ in range(spectators)]
    everyone = players + watchers
    played, cpu = 0, 0.0
    try:
        while played < moves_left:
            state = max((p.state for p in players if p.state is not None),
                        key=lambda s: s["version"])
            if state["status"] != "playing" or state["to_move"] is None:
                break
            mover = players[state["to_move"]]
            view = await mover.state_at(state["version"])
            if not view["legal_moves"]:
                break
            before = proc_figures(pid)["cpu_s"]
            await mover.send({"type": "move", "move": rng.choice(view["legal_moves"]),
                              "ply": view["ply"]})
            reply = await mover.next("ok", "error")
            if reply["type"] != "ok":
                raise RuntimeError(f"the move was refused: {reply}")
            await asyncio.gather(*(client.state_at(reply["version"]) for client in everyone))
            cpu += proc_figures(pid)["cpu_s"] - before
            played += 1
    finally:
        for client in everyone:
            await client.close()
    return played, cpu


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from tests.load.topology import ensure_database, prepare_environment

    env = prepare_environment(args)
    # The players move as fast as the server answers: far past a person's pace.
    env.update({"WS_RATE_PER_SECOND": "100000", "WS_BURST": "100000"})
    os.environ.update(env)
    ensure_database(args.database_url)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.play import services
    from games.play.models import Match
    from games.play.services import Player
    from games.play.time_control import TimeControl
    from tests.load.sessions import create_users, session_cookie
    from tests.support.processes import start_daphne

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    users = create_users(2, f"broadcast{secrets.token_hex(3)}-")
    cookies = [session_cookie(user) for user in users]
    logs = Path(tempfile.mkdtemp(prefix="yourtrumps-broadcast-"))
    server = start_daphne(env, logs, args.port)
    played, cpu, duels = 0, 0.0, 0
    began = time.monotonic()
    try:
        assert server.process is not None
        pid, url = server.process.pid, str(server.extra["url"])
        while played < args.moves:
            match = services.match_create(players=[Player(user=users[0]), Player(user=users[1])],
                                          rated=True, time_control=TimeControl(600, 5),
                                          trumps="SH")
            moves, used = asyncio.run(play_duel(url, match.pk, cookies, args.spectators,
                                                args.moves - played, rng, pid))
            played, cpu, duels = played + moves, cpu + used, duels + 1
    finally:
        server.stop()
        Match.objects.filter(seats__user__in=users).delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
    report: dict[str, Any] = {
        "moves": played,
        "duels": duels,
        "sockets_per_match": 2 + args.spectators,
        "server_cpu_ms_per_move": round(1000 * cpu / max(played, 1), 2),
        "wall_s": round(time.monotonic() - began, 1),
        "server_log": str(logs),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
