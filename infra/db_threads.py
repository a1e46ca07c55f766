"""The database work of the site's WebSocket consumers, on a small pool of threads.

Channels' `database_sync_to_async` runs every call of a process on one shared thread, so each
socket's query waits behind every other socket's, including their waits for PostgreSQL's
answers. `db_call` runs them on `settings.DB_THREADS` threads instead: the services lock the
rows they change, so calls about different matches may overlap, and each thread keeps its own
persistent connection (`CONN_MAX_AGE`). Like Channels' helper, it closes a connection that
broke or outlived its age after each call.

The embedded default (SQLite) has one thread: SQLite takes one writer at a time.

What a change sets off after its commit (the broadcast to the match's sockets, the tasks it
schedules) need not keep a database thread, and the reply to the player, waiting: code that
runs on these threads can find the event loop that asked for the call
(`event_loop_of_this_thread`) and hand work to the process's publisher thread
(`off_the_reply_path`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from django.conf import settings
from django.db import close_old_connections, connections

P = ParamSpec("P")
R = TypeVar("R")

logger = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_publisher: ThreadPoolExecutor | None = None
_local = threading.local()
# How many calls have found their connection broken. A server that went away broke the idle
# connections of every thread too: a thread that sees this number change checks its own
# before its next query, rather than failing that call.
_broken_calls = 0


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=settings.DB_THREADS, thread_name_prefix="db"
        )
    return _executor


def _on_thread(loop: asyncio.AbstractEventLoop, function: Callable[..., R], args: Any,
               kwargs: Any) -> R:
    _local.loop = loop
    _check_after_a_break()
    try:
        return function(*args, **kwargs)
    finally:
        _local.loop = None
        _tidy_connections()


_call: SyncToAsync[..., Any] | None = None


async def db_call(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`await db_call(f, ...)`: run `f(...)` on a database thread and return its result."""
    global _call
    if _call is None:  # one for every call: asgiref's wrapper costs more to make than to run
        _call = SyncToAsync(_on_thread, thread_sensitive=False, executor=_pool())
    return await _call(asyncio.get_running_loop(), function, args, kwargs)  # type: ignore[no-any-return]


def _tidy_connections() -> None:
    """After each call, as Channels' helper does before and after: close a connection that
    broke or outlived its age. One that just served the call without an error needs no
    health check (`CONN_HEALTH_CHECKS`, a `SELECT 1` before the next call's first query):
    if the server went away meanwhile, that query fails, the call is answered `unavailable`
    and retried, and this closes the broken connection."""
    global _broken_calls
    if any(c.errors_occurred for c in connections.all(initialized_only=True)):
        _broken_calls += 1  # under the GIL; a lost increment only delays a check
    close_old_connections()
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and not connection.errors_occurred:
            connection.health_check_done = True


def _check_after_a_break() -> None:
    """Before a call: if some call broke since this thread last looked, health-check this
    thread's connections before their next query (`CONN_HEALTH_CHECKS`)."""
    if getattr(_local, "broken_seen", 0) == _broken_calls:
        return
    _local.broken_seen = _broken_calls
    for connection in connections.all(initialized_only=True):
        connection.health_check_done = False


def event_loop_of_this_thread() -> asyncio.AbstractEventLoop | None:
    """The event loop whose `db_call` is running on this thread, or None elsewhere."""
    return getattr(_local, "loop", None)


def off_the_reply_path(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> None:
    """Run `function(*args, **kwargs)` now, or, on a database thread, soon on the process's
    publisher thread (in the order given), so that the call and the reply waiting for it go
    on. For what a committed change sets off: a failure is logged, not raised."""
    global _publisher
    if event_loop_of_this_thread() is None:
        function(*args, **kwargs)
        return
    if _publisher is None:
        _publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="publisher")
    done = log_failure(f"{getattr(function, '__name__', function)} (set off by a change)")
    _publisher.submit(function, *args, **kwargs).add_done_callback(done)


def log_failure(what: str) -> Callable[[Future[Any] | asyncio.Future[Any]], None]:
    """A done-callback for work nobody waits for (a thread's or the event loop's): logs its
    exception, naming `what`."""

    def check(future: Future[Any] | asyncio.Future[Any]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            logger.error("%s failed", what, exc_info=error)

    return check


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
