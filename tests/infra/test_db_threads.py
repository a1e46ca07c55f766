"""The consumers' database threads (`infra.db_threads`) after PostgreSQL dropped
their connections: the call that meets a broken connection fails (and is retried by its
client), and the other threads check theirs before their next query instead of failing too."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.conf import settings
from django.db import DatabaseError, connection

from infra.db_threads import db_call

pytestmark = pytest.mark.django_db(transaction=True)


def test_after_one_call_meets_a_dropped_connection_the_other_threads_check_theirs():
    threads = settings.DB_THREADS
    assert threads > 1

    def backend_pid(barrier: threading.Barrier) -> int:
        from django.db import connection as own

        barrier.wait(10)  # every thread of the pool at once, each with its own connection
        with own.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return int(cursor.fetchone()[0])

    async def on_every_thread(function):
        barrier = threading.Barrier(threads)
        return await asyncio.gather(*(db_call(function, barrier) for _ in range(threads)),
                                    return_exceptions=True)

    def closed(barrier: threading.Barrier) -> None:
        from django.db import connection as own

        barrier.wait(10)
        own.close()

    def first_call() -> object:
        try:
            return asyncio.run(db_call(backend_pid, threading.Barrier(1)))
        except DatabaseError as error:
            return error

    # Each thread's connection new, so that none is closed for its age (`CONN_MAX_AGE`)
    # right after telling its pid, as an older one of a thread that served earlier tests is.
    asyncio.run(on_every_thread(closed))
    pids = asyncio.run(on_every_thread(backend_pid))
    try:
        with connection.cursor() as cursor:  # as a restarted server does to every client
            for pid in pids:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        first = first_call()
        after = asyncio.run(on_every_thread(backend_pid))
    finally:
        asyncio.run(on_every_thread(closed))  # the test database is dropped after the run
    assert len(set(pids)) == threads
    assert isinstance(first, DatabaseError)  # it met its dropped connection
    assert all(isinstance(pid, int) for pid in after), after  # the others checked theirs
