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

POOL_SIZE = 32
POOL_WAIT_SECONDS = 5.0

_client: Any = None
_loop: asyncio.AbstractEventLoop | None = None


def loop_redis() -> Any:
    """The `redis.asyncio` client of `REDIS_URL` for the running event loop."""
    global _client, _loop
    loop = asyncio.get_running_loop()
    if _client is None or _loop is not loop:
        import redis.asyncio

        # A burst of handshakes waits its turn for a connection: redis-py's default pool
        # raises past 100 commands in flight, which let a cooling session in.
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            settings.REDIS_URL, max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS)
        _client = redis.asyncio.Redis(connection_pool=pool)
        _loop = loop
    return _client
