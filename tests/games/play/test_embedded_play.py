"""The embedded default (SQLite, in-memory channel layer, Celery eager in a thread): a visitor
opens the AI page, starts a game at once as a guest and plays; the AI's moves, made in a
thread off the event loop, reach the socket without the client asking."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import urllib.parse
import urllib.request

import websockets

from tests.support.embedded import embedded_daphne, manage, migrated_env


def test_a_guest_plays_the_ai_on_the_embedded_default(tmp_path):
    with embedded_daphne(migrated_env(tmp_path), tmp_path) as base:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(f"{base}/play/ai/", timeout=10).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({
            "csrfmiddlewaretoken": token, "level": "1", "time_control": "untimed",
            "variant": "standard",
        }).encode()
        request = urllib.request.Request(f"{base}/play/ai/", data=form,
                                         headers={"Referer": f"{base}/play/ai/"})
        response = opener.open(request, timeout=10)
        match_id = int(re.search(r"/game/(\d+)/", response.geturl()).group(1))
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)

        async def play() -> dict:
            async with websockets.connect(
                f"ws{base.removeprefix('http')}/ws/match/{match_id}/", origin=base,
                additional_headers={"Cookie": cookie},
            ) as socket:
                state: dict = {}
                ai_moves = 0
                while ai_moves < 3:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 15))
                    if message["type"] != "state":
                        assert message["type"] in ("ok", "chat_history"), message
                        continue
                    if state and message["version"] <= state["version"]:
                        continue
                    if state and message["ply"] > state["ply"] and message["last_move"]["seat"]:
                        ai_moves += 1
                    state = message
                    if state["status"] != "playing" and state["status"] != "trumps":
                        break
                    if state["status"] == "trumps" and state["trump_choice"]["chooser"] == 0:
                        free = state["trump_choice"]["free"][0]
                        await socket.send(json.dumps({"type": "trump", "suit": free}))
                    elif state["status"] == "playing" and state["to_move"] == state["you"]:
                        await socket.send(json.dumps(
                            {"type": "move", "move": state["legal_moves"][0], "ply": state["ply"]}
                        ))
                return state

        final = asyncio.run(play())

    assert final["you"] == 0
    assert final["seats"][0]["kind"] == "guest"
    assert final["seats"][1]["kind"] == "ai"
    assert final["ply"] >= 3


def test_the_embedded_default_flags_a_silent_mover_without_any_worker(tmp_path):
    env = migrated_env(tmp_path)
    with embedded_daphne(env, tmp_path) as base:
        # Made by another process: only the server's own deadline watch can see the clock run
        # out (no task, no socket action announces it).
        created = manage(env, "shell", "-c", (
            "from games.play import services; from games.play.services import Player; "
            "from games.play.time_control import TimeControl; "
            "print(services.match_create(players=[Player(guest_id='g-a'), "
            "Player(guest_id='g-b')], dealer=1, trumps='SH', time_control=TimeControl(1)).pk)"
        ))
        match_id = int(created.stdout.split()[-1])

        async def watch() -> dict:
            async with websockets.connect(
                f"ws{base.removeprefix('http')}/ws/match/{match_id}/", origin=base
            ) as spectator:
                while True:
                    message = json.loads(await asyncio.wait_for(spectator.recv(), 15))
                    if message["type"] == "state" and message["status"] != "playing":
                        return message

        final = asyncio.run(watch())

    assert final["status"] == "finished"
    assert final["result"]["termination"] == "timeout"
    assert final["result"]["loser"] == 0
