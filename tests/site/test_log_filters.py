"""The logging configuration: a cancelled channel clean-up of channels-redis is a warning, any
other exception it logs stays an error (the load tool counts errors in the servers' logs)."""

from __future__ import annotations

import asyncio
import logging

import pytest


@pytest.mark.parametrize(("raised", "level"), [
    (asyncio.CancelledError(), logging.WARNING),
    (ConnectionError("redis went away"), logging.ERROR),
])
def test_a_cancelled_clean_up_of_a_channel_is_a_warning(caplog, raised, level):
    logger = logging.getLogger("channels_redis.pubsub")  # configured by the settings' LOGGING
    with caplog.at_level(logging.INFO):
        try:
            raise raised
        except BaseException:
            logger.exception("Unexpected exception while cleaning-up channel:")

    [record] = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert record.levelno == level
    assert (record.exc_info is None) == (level == logging.WARNING)


def test_what_a_hostile_socket_sets_off_is_logged_at_a_bounded_rate(caplog, monkeypatch):
    """A burst of lines of one kind, then nothing of that kind until the window has passed;
    the next line says how many were left out. Other kinds are counted apart."""
    from yourtrumps_site import log_filters

    logger = logging.getLogger("infra.sockets")  # rate-limited by the settings
    # Configuring logging again (a second `dictConfig` in the same process) adds the filter
    # again; each copy counts alike, so the logger behaves as with one.
    limits = [f for f in logger.filters if isinstance(f, log_filters.RateLimited)]
    assert limits
    limit = limits[0]
    clock = [1000.0]
    monkeypatch.setattr(log_filters.time, "monotonic", lambda: clock[0])
    for each in limits:
        monkeypatch.setattr(each, "kinds", {})
    with caplog.at_level(logging.INFO):
        for index in range(limit.burst + 30):
            logger.info("websocket to %r refused: no such route", f"/ws/x{index}/")
        logger.info("another kind of line")
        clock[0] += limit.window
        logger.info("websocket to %r refused: no such route", "/ws/late/")

    lines = [r.getMessage() for r in caplog.records if r.name == "infra.sockets"]
    assert len(lines) == limit.burst + 2
    assert lines[limit.burst] == "another kind of line"
    assert lines[-1] == ("websocket to '/ws/late/' refused: no such route"
                         " (and 30 more like it, not logged)")
