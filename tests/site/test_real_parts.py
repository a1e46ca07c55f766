"""The production topology's parts really work together: Redis between daphne processes, and a
real Celery worker executing tasks."""

import asyncio
import json

import pytest
import websockets
import websockets.exceptions
from django.contrib.auth import get_user_model
from django.test import Client

from yourtrumps_site.celery import ping


def session_cookie_for(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def open_socket(server, cookie: str | None = None):
    url = server.extra["url"]
    headers = {"Cookie": cookie} if cookie else {}
    return await websockets.connect(
        f"{url.replace('http', 'ws')}/ws/site/", origin=url, additional_headers=headers
    )


@pytest.mark.django_db(transaction=True)
def test_message_crosses_from_one_daphne_process_to_a_client_of_another(start_asgi_server):
    staff = get_user_model().objects.create_user("announcer", password="x-9fj3kd-Q", is_staff=True)
    cookie = session_cookie_for(staff)
    server_a, server_b = start_asgi_server(), start_asgi_server()

    async def scenario():
        listener = await open_socket(server_b)
        sender = await open_socket(server_a, cookie)
        try:
            # The listener's subscription reaches Redis moments after its handshake, and
            # nothing tells when: announce again until it hears one, for ten seconds at most.
            for _ in range(50):
                await sender.send(json.dumps({"type": "announce", "text": "Restart in 5 minutes"}))
                try:
                    return json.loads(await asyncio.wait_for(listener.recv(), 0.2))
                except TimeoutError:
                    continue
            raise AssertionError("no announcement crossed between the processes")
        finally:
            await sender.close()
            await listener.close()

    received = asyncio.run(scenario())

    assert received == {"type": "announcement", "text": "Restart in 5 minutes"}


@pytest.mark.django_db(transaction=True)
def test_a_visitor_cannot_announce(asgi_server):
    async def scenario():
        socket = await open_socket(asgi_server)
        try:
            await socket.send(json.dumps({"type": "announce", "text": "hello"}))
            return json.loads(await asyncio.wait_for(socket.recv(), 10))
        finally:
            await socket.close()

    assert asyncio.run(scenario())["code"] == "forbidden"


def test_a_socket_from_another_site_is_refused(asgi_server):
    url = asgi_server.extra["url"]

    async def scenario():
        await websockets.connect(
            f"{url.replace('http', 'ws')}/ws/site/", origin="http://evil.example"
        )

    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(scenario())


def test_a_task_is_executed_by_a_real_celery_worker(celery_worker):
    result = ping.delay()

    assert result.get(timeout=20) == "pong"
    assert celery_worker.alive


def test_the_worker_knows_every_task_the_site_sends(celery_worker):
    from yourtrumps_site.celery import app

    app.loader.import_default_modules()
    site_tasks = {name for name in app.tasks if not name.startswith("celery.")}

    # A solo worker answers between tasks: ask again until it does (an earlier test's AI move
    # may still be running).
    registered: dict[str, list[str]] = {}
    for _attempt in range(12):
        registered = app.control.inspect(timeout=5).registered() or {}
        if registered:
            break
    worker_tasks = {name.split(" ")[0] for names in registered.values() for name in names}

    assert {"games.ai_move", "replays.analyse_match"} <= site_tasks
    assert site_tasks <= worker_tasks
