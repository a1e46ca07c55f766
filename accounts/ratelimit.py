"""A sliding-window rate limit on Django's cache (Redis in production, so it holds across
processes; local memory in the embedded default, which is one process).

The window is estimated from two fixed windows, as in the usual "sliding window counter":
the count of the current window plus the previous window's count weighted by the part of it
still inside the sliding window. The counters are increased with `cache.incr`, atomic in
Redis, so concurrent requests are all counted.
"""

from __future__ import annotations

import math
import time

from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import ngettext


def hit(*, key: str, limit: int, window: int, now: float | None = None) -> float | None:
    """Count one attempt of `key`. None if it is within `limit` per `window` seconds, else
    how many seconds to wait before the next attempt would be allowed.

    A refused attempt is not counted, so the wait told is the wait that holds: hammering
    does not push the end of a refusal further away than the attempts that were let through.
    """
    now = time.time() if now is None else now
    slot = int(now // window)
    into = now - slot * window
    current_key, previous_key = f"ratelimit:{key}:{slot}", f"ratelimit:{key}:{slot - 1}"
    cache.add(current_key, 0, timeout=2 * window + 1)
    try:
        current = cache.incr(current_key)
    except ValueError:  # expired between add and incr
        cache.set(current_key, 1, timeout=2 * window + 1)
        current = 1
    previous = int(cache.get(previous_key) or 0)
    if previous * (window - into) / window + current <= limit:
        return None
    cache.decr(current_key)
    return _wait(counted=current - 1, previous=previous, limit=limit, window=window, into=into)


def _wait(*, counted: int, previous: int, limit: int, window: int, into: float) -> float:
    """Seconds until one more attempt fits, if none is made meanwhile: `counted` attempts in
    the current fixed window, `previous` in the one before, `into` seconds into the current."""
    room = limit - counted - 1  # what the previous window's weighted count may still be
    if room >= 0 and previous > 0:
        # Later in this window, once the previous one's weight has fallen far enough.
        return max(1.0, math.ceil(window * (1 - room / previous) - into))
    # In the next window, where this window's attempts weigh as the previous ones.
    next_room = limit - 1
    reached = window if counted == 0 else window * max(0.0, 1 - next_room / counted)
    return max(1.0, math.ceil(window - into + reached))


def client_address(request: HttpRequest) -> str:
    """The client's address (daphne puts the proxy's X-Forwarded-For there when asked)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def wait_message(seconds: float) -> str:
    """"Please wait ..." in whole minutes (a person does not count seconds past one)."""
    if seconds < 90:
        count = max(1, math.ceil(seconds))
        return ngettext(
            "Too many attempts. Please wait %(count)d second and try again.",
            "Too many attempts. Please wait %(count)d seconds and try again.",
            count,
        ) % {"count": count}
    count = math.ceil(seconds / 60)
    return ngettext(
        "Too many attempts. Please wait %(count)d minute and try again.",
        "Too many attempts. Please wait %(count)d minutes and try again.",
        count,
    ) % {"count": count}
