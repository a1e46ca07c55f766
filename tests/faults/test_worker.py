"""A Celery worker killed in the middle of an AI search: the task was acknowledged late, so it
goes back to the queue, and after a worker restarts the AI's move arrives, once.

When it arrives depends on the broker's visibility timeout (`CELERY_VISIBILITY_TIMEOUT`): Redis
hands an unacknowledged task of a dead worker to another only after it. This test runs with 6 s;
the default is an hour, and workers look for such tasks every 100 s (docs/reliability.md)."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest

from games.play import services
from games.play.models import Match, Move
from games.play.services import Player
from tests.faults.conftest import start_worker
from tests.load.client import MatchClient
from tests.load.sessions import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("sockets_settled"),
              pytest.mark.slow]

# Seat 0 (the person) leads; the AI at seat 1 answers.
START = "SH 7C9DJSQD/6H8CKDTS - 0 -"


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def test_an_ai_move_cut_off_by_a_killed_worker_arrives_once_after_a_restart(
    start_asgi_server, server_env, process_logs, make_user, tmp_path
):
    queue = f"faults-ai-{secrets.token_hex(3)}"  # only this test's workers take its tasks
    env = {**server_env, "CELERY_QUEUE": queue, "CELERY_VISIBILITY_TIMEOUT": "6",
           "CELERY_RESTORE_INTERVAL": "1", "CELERY_RESTORE_THROTTLE": "1"}
    server = start_asgi_server(CELERY_QUEUE=queue)
    user = make_user()
    match = services.match_create(players=[Player(user=user), Player(ai_level=1)],
                                  start_tpn=START, dealer=1)
    cookie = session_cookie(user)
    marker = tmp_path / "search-started"
    slow = start_worker({**env, "FAULT_AI_MARKER": str(marker), "FAULT_AI_SECONDS": "60"},
                        process_logs, f"slow-{queue}", slow=True)
    restarted = None
    try:

        async def my_move():
            client = await MatchClient.open(str(server.extra["url"]), match.pk, cookie)
            move = client.state["legal_moves"][0]
            await client.send({"type": "move", "move": move, "ply": 0})
            await client.next("ok")
            await client.close()

        asyncio.run(my_move())
        wait_for(marker.exists, 60, "the AI search to start in the worker")
        slow.kill()  # SIGKILL in the middle of the search
        assert Match.objects.get(pk=match.pk).ply == 1  # the AI has not moved

        killed_at = time.monotonic()
        restarted = start_worker(env, process_logs, f"restarted-{queue}")

        async def watch():
            client = await MatchClient.open(str(server.extra["url"]), match.pk, cookie)
            plies = [client.state["ply"]]
            while client.state["ply"] < 2:
                plies.append((await client.next("state", timeout=90))["ply"])
            arrived = time.monotonic()
            # Then nothing more for a while: the move came once.
            try:
                while True:
                    plies.append((await client.next("state", timeout=8))["ply"])
            except TimeoutError:
                pass
            await client.close()
            return plies, arrived

        plies, arrived = asyncio.run(watch())

        print(f"\nthe AI's move arrived {arrived - killed_at:.1f} s after the worker was killed")
        assert max(plies) == 2
        moves = list(Move.objects.filter(match_id=match.pk).order_by("ply")
                     .values_list("ply", "seat"))
        assert moves == [(1, 0), (2, 1)]  # the AI's move is stored exactly once
        assert marker.read_text().count("search started") == 1  # only the killed search ran slow
    finally:
        slow.stop()
        if restarted is not None:
            restarted.stop()
