"""The wait after a test with match sockets on real servers: until the servers have recorded
the closing of those sockets (the presence update), so that the database flush before the
next test does not race a transaction of theirs."""

from __future__ import annotations

import time

# The counts a stopped or killed server leaves behind never fall (on the site, the presence
# lease outlives them): counts that stood still this long are settled too.
STILL_FOR = 1.0


def wait_sockets_settled(timeout: float = 10) -> None:
    """Poll the seats' socket counts (no event reaches this process) until none is open, or
    none has changed for `STILL_FOR` seconds, or `timeout` has passed."""
    from games.play.models import Seat

    deadline = time.monotonic() + timeout
    seen: list[tuple[int, int]] | None = None
    still_since = time.monotonic()
    while time.monotonic() < deadline:
        counts = sorted(Seat.objects.filter(connections__gt=0).values_list("pk", "connections"))
        if not counts:
            return
        if counts != seen:
            seen, still_since = counts, time.monotonic()
        elif time.monotonic() - still_since >= STILL_FOR:
            return
        time.sleep(0.02)
