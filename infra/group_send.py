"""Group sends from synchronous code: the one way a service, a task or a signal tells the
sockets of every process (`group_send_all`).

- On a database thread of a socket server (`infra.db_threads`), the sends are handed to its
  event loop as one call and the thread goes on: neither it nor the reply waiting for it
  waits for Redis.
- Anywhere else (a Celery worker, a management command, a test's thread), they go through
  the process's sender: one event loop on a thread of its own, started at the first send,
  whose connection to Redis stays open. asgiref's `async_to_sync` would make a thread, an
  event loop and a connection to Redis for every call, some milliseconds of CPU each: an
  arena's wave tells two groups per game it starts. The caller waits until the sends are
  written (or failed), so that they go out in the order they were made and before a task
  that made them ends.

A send that fails is logged, never raised: what it tells is committed, and the sockets catch
up on their next `sync` or connect.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any

from channels.layers import get_channel_layer

from infra.db_threads import event_loop_of_this_thread

logger = logging.getLogger(__name__)

WAIT_SECONDS = 10.0  # a sender that has not written by then is given up on (logged)

Messages = Sequence[tuple[str, dict[str, Any]]]


def group_send_all(messages: Messages) -> None:
    """Send each (group, event), in order, to the channel layer's groups."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    messages = list(messages)
    loop = event_loop_of_this_thread()
    if loop is not None:
        loop.call_soon_threadsafe(_send_on_loop, layer, messages)
        return
    future = asyncio.run_coroutine_threadsafe(_send(layer, messages), _sender_loop())
    try:
        future.result(WAIT_SECONDS)
    except Exception:  # the loop's own failures are logged by `_send`; this is the wait's
        logger.exception("could not tell the groups %s", _groups(messages))


async def _send(layer: Any, messages: Messages) -> None:
    for group, event in messages:
        try:
            await layer.group_send(group, event)
        except Exception:
            logger.exception("could not tell the group %s", group)


def _send_on_loop(layer: Any, messages: Messages) -> None:
    """On a socket server's event loop: write at once on its connection to Redis where the
    layer has one (`infra.channel_layer`), the rest in a task, in order."""
    send_now = getattr(layer, "group_send_nowait", None)
    for at, (group, event) in enumerate(messages):
        try:
            sent = send_now is not None and send_now(group, event)
        except Exception:
            logger.exception("could not tell the group %s", group)
            continue
        if not sent:
            task = asyncio.ensure_future(_send(layer, messages[at:]))
            _sending.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(_sending.discard)
            return


_sending: set[asyncio.Future[None]] = set()


def _groups(messages: Messages) -> list[str]:
    return [group for group, _event in messages]


# --- the process's sender ---------------------------------------------------------------------

_sender: tuple[int, asyncio.AbstractEventLoop] | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """The process's sender loop, started on first use (and again in a forked child, such as
    a Celery worker's process: a thread does not survive a fork)."""
    global _sender
    with _sender_lock:
        if _sender is None or _sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="group-sender",
                                      daemon=True)
            thread.start()
            _sender = (os.getpid(), loop)
        return _sender[1]
