"""Matchmaking on the embedded default (SQLite, in-memory channel layer, eager Celery, one
daphne process): two players joining a pool are sent to one match."""

from __future__ import annotations

import asyncio

from tests.games.matchmaking.sockets import LobbySocket
from tests.support.embedded import embedded_daphne, manage, migrated_env

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
    env = migrated_env(tmp_path)
    # The two session keys, after whatever the shell itself prints.
    sessions = manage(env, "shell", "-c", MAKE_PLAYERS).stdout.split()[-2:]

    async def scenario(url):
        sockets = [await LobbySocket.open(url, f"sessionid={key}") for key in sessions]
        try:
            for socket in sockets:
                await socket.next("lobby")
                await socket.send({"type": "pool_join", "pool": "1+1"})
            return [await socket.next("paired") for socket in sockets]
        finally:
            for socket in sockets:
                await socket.close()

    with embedded_daphne(env, tmp_path) as url:
        paired = asyncio.run(scenario(url))

    assert paired[0]["match_id"] == paired[1]["match_id"]
