"""The tests' Redis cache: Django's own, but for `clear()`, which empties the keys of this
run's `KEY_PREFIX` instead of the whole Redis database (Django's `flushdb`). Under xdist the
other worker keeps its cache, its Celery queues and its sockets' counts in the same database;
a test that starts from a fresh cache (`cache.clear()`) must not empty them."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache


class RunRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        return True
