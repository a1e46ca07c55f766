"""Checks of the parts the site cannot work without, for `/healthz` and the operators."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

from yourtrumps_site.celery import app as celery_app

CHECK_TIMEOUT_SECONDS = 2.0


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_channel_layer() -> str:
    """A message sent to a fresh channel must come back: proves the layer (Redis) answers."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")

    async def round_trip() -> None:
        channel = await layer.new_channel("healthz.")
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await asyncio.wait_for(layer.receive(channel), CHECK_TIMEOUT_SECONDS)
        if message.get("token") != token:
            raise RuntimeError("the channel layer returned another message")

    async_to_sync(round_trip)()
    return "ok"


def check_broker() -> str:
    if celery_app.conf.task_always_eager:
        return "ok (eager, no broker)"
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_SECONDS)
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}


def run_checks() -> tuple[bool, dict[str, str]]:
    """Every check's status, and whether all of them passed."""
    results: dict[str, str] = {}
    healthy = True
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as error:
            healthy = False
            results[name] = f"error: {type(error).__name__}: {error}".strip()
    return healthy, results
