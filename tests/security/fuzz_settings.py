"""Settings of the daphne that the fuzz test pours thousands of frames into: the test settings
with the per-connection rate limit lifted, so that every frame reaches the consumer's parsing
(the limit itself is tested on a server with the normal settings)."""

from tests.settings import *  # noqa: F403

WS_RATE_PER_SECOND = 1_000_000.0
WS_BURST = 1_000_000
