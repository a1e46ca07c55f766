"""The renewal of the socket counts (`infra.socket_caps`), on the tests' Redis: every place a
process holds is scored anew, in batches, and a place dropped meanwhile stays dropped."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import redis
from django.core.cache import cache

from infra.socket_caps import RENEW_BATCH, STALE_SECONDS, _places, _Registry


def test_a_renewal_scores_every_held_place_and_revives_none(settings: Any) -> None:
    settings.WS_MAX_SOCKETS_PER_ADDRESS = 10_000
    registry = _Registry()
    kind = f"renewal-{uuid.uuid4().hex[:8]}"  # sets of this test alone
    store = redis.Redis.from_url(settings.REDIS_URL)
    sockets = RENEW_BATCH + 7  # more places than one batch holds (each socket holds two)
    address_set = cache.make_key(f"sockets:{kind}:address:127.0.0.9")
    long_ago = time.time() - STALE_SECONDS / 2

    async def scenario() -> float:
        for i in range(sockets):
            assert await registry.claim(f"channel-{i}", _places(kind, 10_000 + i, "127.0.0.9")
                                        ) is None
        # As if the last round were long ago; and one place dropped as stale meanwhile.
        store.zadd(address_set, {f"channel-{i}": long_ago for i in range(sockets)})
        store.zrem(address_set, "channel-0")
        before = time.time()
        await registry.renew()
        return before

    try:
        renewed_from = asyncio.run(scenario())
        scores = dict(store.zrange(address_set, 0, -1, withscores=True))
        assert len(scores) == sockets - 1
        assert b"channel-0" not in scores
        assert min(scores.values()) >= renewed_from
        assert 0 < store.ttl(address_set) <= 2 * STALE_SECONDS
        last_user = cache.make_key(f"sockets:{kind}:user:{10_000 + sockets - 1}")
        assert store.zscore(last_user, f"channel-{sockets - 1}") >= renewed_from
    finally:
        names = [address_set] + [cache.make_key(f"sockets:{kind}:user:{10_000 + i}")
                                 for i in range(sockets)]
        store.delete(*names)
