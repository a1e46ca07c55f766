"""The sliding-window rate limit on the cache, with the time passed in."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts import ratelimit


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def test_attempts_within_the_limit_pass_and_the_next_is_told_how_long_to_wait():
    results = [ratelimit.hit(key="k", limit=3, window=60, now=1000.0 + i) for i in range(4)]

    assert results[:3] == [None, None, None]
    assert results[3] is not None
    assert 1 <= results[3] <= 60


def test_the_window_slides_rather_than_resetting_at_its_edge():
    window = 60
    start = 60 * 100  # the start of a fixed window
    for i in range(3):
        assert ratelimit.hit(key="s", limit=3, window=window, now=start + 50 + i) is None

    # Just after the fixed window's edge the three attempts still weigh almost fully.
    assert ratelimit.hit(key="s", limit=3, window=window, now=start + 61) is not None
    # Most of a window later they have slid out.
    assert ratelimit.hit(key="s", limit=3, window=window, now=start + 60 + 55) is None


def test_keys_are_counted_apart():
    for _ in range(3):
        ratelimit.hit(key="a", limit=3, window=60, now=5.0)

    assert ratelimit.hit(key="b", limit=3, window=60, now=5.0) is None


@settings(max_examples=200, deadline=None)
@given(
    limit=st.integers(min_value=1, max_value=6),
    gaps=st.lists(st.floats(min_value=0, max_value=70), min_size=1, max_size=20),
    start=st.floats(min_value=0, max_value=600),
)
def test_the_wait_told_is_the_wait_that_holds(limit, gaps, start):
    """After a refusal, an attempt made when the wait told is over is let through."""
    cache.clear()
    now = 60 * 1000 + start
    for gap in gaps:
        now += gap
        wait = ratelimit.hit(key="w", limit=limit, window=60, now=now)
        if wait is not None:
            assert wait >= 1
            assert ratelimit.hit(key="w", limit=limit, window=60, now=now + wait) is None
            return
