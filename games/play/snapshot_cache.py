"""The newest snapshot of recently changed matches, per process: an optimisation only.

A service puts the snapshot of its change here once the change has committed; a later change
of the same match in this process (the opponent's move in a duel whose sockets this process
holds) then reads the move list from it instead of from the database. Nothing's correctness
depends on it: a snapshot is used only if it is of the very version of the locked match row
(`games.play.selectors.match_moves`), and with the cache empty every read goes to the
database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

Snapshot = dict[str, Any]


class SnapshotCache:
    """A bounded map of match id to its newest snapshot seen by this process."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[int, Snapshot] = OrderedDict()

    def put(self, snapshot: Snapshot) -> None:
        """Keep a committed snapshot (an older one than the one held is ignored)."""
        match_id = snapshot["id"]
        with self._lock:
            held = self._items.get(match_id)
            if held is not None and held["version"] > snapshot["version"]:
                return
            self._items[match_id] = snapshot
            self._items.move_to_end(match_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def get(self, match_id: int, *, version: int) -> Snapshot | None:
        """The held snapshot of the match if it is of exactly `version`."""
        with self._lock:
            held = self._items.get(match_id)
        return held if held is not None and held["version"] == version else None

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


recent = SnapshotCache()
