"""This process's arena pages renew their players' presence together.

Every open page of an arena renews its player's presence every third of
`TOURNAMENTS_ALIVE_SECONDS`. One statement per page would be, with 500 pages, 100 updates a
second on the socket servers' few database threads. Instead each page asks `renew_soon`, and
once every `FLUSH_SECONDS` the process writes what was asked, one statement per arena
(`services.participants_presence_renew`), on a database thread. A page's presence is then at
most `FLUSH_SECONDS` later than asked, far inside its lease.

One writer per event loop: a test's loop, or a server's one.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from games.tournaments import services
from infra.db_threads import db_call

FLUSH_SECONDS = 1.0
logger = logging.getLogger(__name__)


class _Renewals:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.asked: dict[int, set[int]] = {}
        self.writer = loop.create_task(self._write_every_while())

    async def _write_every_while(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self.write()

    async def write(self) -> None:
        asked, self.asked = self.asked, {}
        for tournament_id, user_ids in asked.items():
            try:
                await db_call(services.participants_presence_renew,
                              tournament_id=tournament_id, user_ids=sorted(user_ids))
            except Exception:  # a database hiccup: the next renewal, within the lease, retries
                logger.exception("renewing the presence of %d players failed", len(user_ids))


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Renewals] = (
    weakref.WeakKeyDictionary())


def _renewals() -> _Renewals:
    loop = asyncio.get_running_loop()
    renewals = _by_loop.get(loop)
    if renewals is None or renewals.writer.done():
        renewals = _by_loop[loop] = _Renewals(loop)
    return renewals


def renew_soon(*, tournament_id: int, user_id: int) -> None:
    """Renew this player's presence in the arena with the process's next write."""
    _renewals().asked.setdefault(tournament_id, set()).add(user_id)


async def renew_now() -> None:
    """Write what was asked at once (a test; the writer does it every `FLUSH_SECONDS`)."""
    await _renewals().write()
