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
