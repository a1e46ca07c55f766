"""Settings of the daphne that the fuzz test pours thousands of frames into: the test settings
with the per-connection rate limit, the count of frames not understood and the cool-down
lifted, so that every frame reaches the consumer's parsing (the limits themselves are tested
on a server with the normal settings)."""

from tests.settings import *  # noqa: F403

WS_RATE_PER_SECOND = 1_000_000.0
WS_BURST = 1_000_000
WS_MAX_BAD_FRAMES = 1_000_000
WS_ABUSE_COOLDOWN_SECONDS = 0
