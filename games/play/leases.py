"""The presence leases of the seats whose game sockets this process holds, renewed together.

A seat counts as present while its lease runs (`checks.is_present`); an open socket keeps it
running. One task per process renews every held seat in one statement each third of the
lease, instead of one write per socket: a thousand sockets cost one query every 15 s. A
process that dies renews nothing, and its seats' leases lapse on their own.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from django.conf import settings

from games.play import services
from infra.db_threads import db_call

logger = logging.getLogger(__name__)


class LeaseKeeper:
    def __init__(self) -> None:
        self._held: Counter[tuple[int, int]] = Counter()
        self._task: asyncio.Task[None] | None = None

    def hold(self, match_id: int, seat: int) -> None:
        """A socket of the seat opened in this process."""
        self._held[(match_id, seat)] += 1
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._renew_while_held())

    def release(self, match_id: int, seat: int) -> None:
        """A socket of the seat closed."""
        key = (match_id, seat)
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]

    async def _renew_while_held(self) -> None:
        interval = settings.GAMES_PRESENCE_LEASE_SECONDS / 3
        while self._held:
            await asyncio.sleep(interval)
            seats = list(self._held)
            if not seats:
                break
            try:
                await db_call(services.seat_presence_renew, seats=seats)
            except Exception:  # the database is away for a moment: try again later
                logger.warning("presence leases of %d seats not renewed", len(seats),
                               exc_info=True)


leases = LeaseKeeper()
