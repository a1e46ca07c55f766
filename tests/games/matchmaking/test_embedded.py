"""Matchmaking on the embedded default (SQLite, in-memory channel layer, eager Celery, one
daphne process): two players joining a pool are sent to one match."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from tests.games.matchmaking.sockets import LobbySocket
from tests.site.test_embedded_default import embedded_env
from tests.support.processes import REPO_ROOT, ManagedProcess, free_port, wait_for_http

MAKE_PLAYERS = """
from django.contrib.auth import get_user_model
from django.test import Client
for name in ("anna", "boris"):
    user = get_user_model().objects.create_user(name, password="pw-Xk39-long")
    client = Client()
    client.force_login(user)
    print(client.cookies["sessionid"].value)
"""


def test_two_players_are_paired_on_the_embedded_default(tmp_path):
    env = embedded_env(tmp_path)
    for command in (["migrate", "--noinput"], ["shell", "-c", MAKE_PLAYERS]):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=REPO_ROOT, env=env,
                              check=True, capture_output=True, text=True)
    sessions = done.stdout.split()[-2:]  # after what the shell itself prints
    port = free_port()
    server = ManagedProcess(
        name="embedded daphne",
        args=[sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
              "yourtrumps_site.asgi:application"],
        env=env,
        log_path=tmp_path / "daphne.log",
    ).start()
    url = f"http://127.0.0.1:{port}"

    async def scenario():
        sockets = [await LobbySocket.open(url, f"sessionid={key}") for key in sessions]
        try:
            for socket in sockets:
                await socket.next("lobby")
                await socket.send({"type": "pool_join", "pool": "1+1"})
            return [await socket.next("paired") for socket in sockets]
        finally:
            for socket in sockets:
                await socket.close()

    try:
        wait_for_http(f"{url}/healthz", server)
        paired = asyncio.run(scenario())
    finally:
        server.stop()

    assert paired[0]["match_id"] == paired[1]["match_id"]
