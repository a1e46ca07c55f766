"""The run's database kept as a site's is kept: settled before the run, and vacuumed during it
where the server's autovacuum is off.

Every move rewrites its match's row (and a clock its seat's), so a run of 1,000 duels leaves
some 80,000 dead versions of a thousand live rows. A site's autovacuum clears them as they
come (a table past 50 + 20 % of its rows dead, looked at every minute); with it off they pile
up across runs, and each move's update and read then walk the dead versions: on a server
with autovacuum off, five runs on one database took a move's round trip from a p99 of a few
hundred milliseconds to seconds.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

NAPTIME_SECONDS = 60.0  # PostgreSQL's autovacuum_naptime by default


def churned_tables() -> list[str]:
    """The tables whose rows a run's moves and games rewrite."""
    from accounts.models import PlayerRating
    from games.play.models import Match, Seat

    return [model._meta.db_table for model in (Match, Seat, PlayerRating)]


def database_settle() -> None:
    """VACUUM and ANALYZE the run's database once its rows are made in bulk, as autovacuum
    would have on a site of that size: it clears what earlier runs left dead, and with the
    statistics of the empty tables PostgreSQL plans a match's read as a hash join over every
    user (1.2 ms a read, a move's, where an index look-up costs 0.05 ms) and keeps that plan
    for the connection's prepared statement."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def autovacuum_on() -> bool:
    """Whether the database's server runs autovacuum (anything but PostgreSQL: no need)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return str(cursor.fetchone()[0]) == "on"


@dataclass
class Vacuuming:
    """While entered, and only if `needed` (None: if the server's autovacuum is off): VACUUM
    the churned tables every `naptime` seconds from a thread of its own, as autovacuum would."""

    naptime: float = NAPTIME_SECONDS
    needed: bool | None = None
    passes: int = 0
    seconds: float = 0.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Vacuuming:
        if self.needed is None:
            self.needed = not autovacuum_on()
        if self.needed:
            self._thread = threading.Thread(target=self._run, name="vacuuming", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        from django.db import connection

        tables = churned_tables()
        try:
            while not self._stop.wait(self.naptime):
                started = time.monotonic()
                with connection.cursor() as cursor:
                    for table in tables:
                        cursor.execute(f'VACUUM "{table}"')
                self.passes += 1
                self.seconds += time.monotonic() - started
        finally:
            connection.close()

    def describe(self) -> str:
        if not self.needed:
            return "the server's autovacuum is on"
        return (f"the server's autovacuum is off: the run vacuumed {', '.join(churned_tables())} "
                f"every {self.naptime:.0f} s as it would ({self.passes} passes, "
                f"{self.seconds:.1f} s)")
