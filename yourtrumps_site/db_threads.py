"""The database work of the site's WebSocket consumers, on a small pool of threads.

Channels' `database_sync_to_async` runs every call of a process on one shared thread, so each
socket's query waits behind every other socket's, including their waits for PostgreSQL's
answers. `db_call` runs them on `settings.DB_THREADS` threads instead: the services lock the
rows they change, so calls about different matches may overlap, and each thread keeps its own
persistent connection (`CONN_MAX_AGE`). Like Channels' helper, it closes a connection that
broke or outlived its age before and after each call.

The embedded default (SQLite) has one thread: SQLite takes one writer at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=settings.DB_THREADS, thread_name_prefix="db"
        )
    return _executor


async def db_call(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`await db_call(f, ...)`: run `f(...)` on a database thread and return its result."""
    call = DatabaseSyncToAsync(function, thread_sensitive=False, executor=_pool())
    return await call(*args, **kwargs)  # type: ignore[no-any-return]


class OnDatabaseThreads:
    """For a consumer whose database work all goes through `db_call`. Channels closes the
    stale connections of its one shared database thread before handling every message (a hop
    to that thread and back for each frame and each event); `db_call` does it on its own
    threads around each call, so that hop is skipped. Mix in before the consumer class."""

    async def dispatch(self, message: dict[str, object]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
