"""The stream of one game: its full state first (`gameFull`), then each change (`gameState`),
as the viewer may see it — the state message the board is sent (`games.play.state_message`),
rendered from the same snapshots, so the API shows nobody a card the board would not. It
ends after the state of a game that is over.

A player's stream (the Bot API) keeps their seat present, as an open game page does: a
bot whose stream is open is at the table.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from django.utils import translation

from games.api.streams import Listener, ListenerLost, line
from games.play import services
from games.play.errors import PlayError
from games.play.leases import leases
from games.play.models import Status
from games.play.snapshot_cache import Snapshot, event_snapshot
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from infra.db_threads import db_call

OVER = (Status.FINISHED, Status.ABORTED)


def state_line(snapshot: Snapshot, seat: int | None, kind: str) -> bytes:
    # The API speaks English: names of the AI and the reasons of ends in one language.
    with translation.override("en"):
        view: dict[str, Any] = state_message(snapshot=snapshot, viewer_seat=seat)
    view["type"] = kind
    return line(view)


async def game_lines(*, match_id: int, seat: int | None,
                     present: bool = True) -> AsyncIterator[bytes]:
    """The lines of the stream of `match_id` as seat `seat` (None: a spectator) sees it;
    with `present` the seat counts as present while the stream is open."""
    listener = Listener()
    held = False
    try:
        # Listen first, then read: a change between the two comes as an event, not lost.
        await listener.open(services.group_name(match_id))
        snapshot = await db_call(match_snapshot, match_id=match_id)
        if snapshot is None:
            return
        if present and seat is not None and snapshot["status"] not in OVER:
            await db_call(services.seat_presence_change, match_id=match_id, seat=seat,
                          connected=True)
            leases.hold(match_id, seat)
            held = True
            snapshot = await db_call(match_snapshot, match_id=match_id) or snapshot
        sent = snapshot["version"]
        yield state_line(snapshot, seat, "gameFull")
        while snapshot["status"] not in OVER:
            try:
                event = await listener.next()
            except ListenerLost:
                return
            if event is None:
                yield b"\n"
                continue
            if event.get("type") != "match.changed" or int(event.get("version", 0)) <= sent:
                continue
            found = event_snapshot(event)
            if found is None:
                found = await db_call(match_snapshot, match_id=match_id)
                if found is None:
                    return
            snapshot = found
            sent = snapshot["version"]
            yield state_line(snapshot, seat, "gameState")
    finally:
        await listener.close()
        if held and seat is not None:
            leases.release(match_id, seat)
            with contextlib.suppress(PlayError):  # the match went away meanwhile
                await db_call(services.seat_presence_change, match_id=match_id, seat=seat,
                              connected=False)
