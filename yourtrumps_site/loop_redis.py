"""The process's asyncio Redis client, for what the sockets keep in Redis themselves.

Django's cache is no fit on a socket's path: its cache objects live per async context
(asgiref's `Local`), so every handshake's task built a client of its own, with a new
connection to Redis (and redis-py reading its package metadata for each), and its `a*`
methods hop to a thread. One client per event loop shares one pool of connections.
"""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings

_client: Any = None
_loop: asyncio.AbstractEventLoop | None = None


def loop_redis() -> Any:
    """The `redis.asyncio` client of `REDIS_URL` for the running event loop."""
    global _client, _loop
    loop = asyncio.get_running_loop()
    if _client is None or _loop is not loop:
        import redis.asyncio

        _client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
        _loop = loop
    return _client
