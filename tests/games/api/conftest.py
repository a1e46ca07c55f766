"""The API's views run their queries on the database threads (`db_call`), whose persistent
connections would outlive an in-process test and keep the test database from being dropped:
each test closes them at its end, every thread at once."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.conf import settings

from infra.db_threads import db_call


def _close(barrier: threading.Barrier) -> None:
    from django.db import connection

    barrier.wait(10)  # every thread of the pool at once, each with its own connection
    connection.close()


@pytest.fixture(autouse=True)
def _database_threads_closed():
    yield
    barrier = threading.Barrier(settings.DB_THREADS)

    async def on_every_thread() -> None:
        await asyncio.gather(*(db_call(_close, barrier) for _ in range(settings.DB_THREADS)))

    asyncio.run(on_every_thread())
