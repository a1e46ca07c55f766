"""The newest snapshot of recently changed matches, per process, and the snapshot as the
`match.changed` event carries it.

A service puts the snapshot of its change here once the change has committed; a later change
of the same match in this process (the opponent's move in a duel whose sockets this process
holds) then reads the move list from it instead of from the database. Nothing's correctness
depends on it: a snapshot is used only if it is of the very version of the locked match row
(`games.play.selectors.match_moves`), and with the cache empty every read goes to the
database.

The event carries the snapshot packed (`snapshot_packed`), opened only where it is news
(`event_snapshot`): the process that made the change holds it already, and its mover's socket
has been sent its state; the channel layer's decoding of every event in every process with a
socket of the match was about 4 % of a socket server under 1,000 duels (docs/reliability.md).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import msgpack

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


def snapshot_packed(snapshot: Snapshot) -> bytes:
    """The snapshot as an event carries it."""
    return msgpack.packb(snapshot)  # type: ignore[no-any-return]


def event_snapshot(event: dict[str, Any]) -> Snapshot | None:
    """The snapshot of a `match.changed` event (`match_id`, `version`, `snapshot` packed or
    None): the one this process holds of that version if it does (it made the change, or
    another socket here opened the event), else opened and kept for the next; None if the
    event has none (the change could not be read back, or it comes from a server of another
    version while a new one is deployed: the match is read instead)."""
    packed, match_id = event.get("snapshot"), event.get("match_id")
    if not isinstance(packed, bytes) or not isinstance(match_id, int):
        return None
    held = recent.get(match_id, version=int(event["version"]))
    if held is not None:
        return held
    snapshot: Snapshot = msgpack.unpackb(packed)
    recent.put(snapshot)  # committed: a later move of this match may read from it
    return snapshot
