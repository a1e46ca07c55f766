"""Group sends from synchronous code (`infra.group_send`), on the real Redis: from a thread
with no event loop (a Celery worker's, a command's) they go out in order through the
process's sender, on one connection kept open between calls; from a socket server's database
thread they are handed to its event loop; a send that fails is logged, not raised."""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.layers import get_channel_layer

from infra import group_send
from infra.db_threads import db_call
from infra.group_send import group_send_all
from tests.infra.test_channel_layer import layer, receive, subscribed


async def test_sends_from_a_thread_without_a_loop_go_in_order_on_one_kept_connection():
    listener = layer()
    channel = await subscribed(listener, "sync-sender-order")
    await asyncio.to_thread(group_send_all, [("sync-sender-order", {"type": "tick", "n": 0})])
    sender_loop = group_send._sender_loop()
    publisher = get_channel_layer()._layers[sender_loop]._publishers[0]
    for n in range(1, 30, 3):
        await asyncio.to_thread(group_send_all, [
            ("sync-sender-order", {"type": "tick", "n": n + i}) for i in range(3)])

    heard = [(await receive(listener, channel))["n"] for _ in range(31)]
    assert heard == list(range(31))
    assert group_send._sender_loop() is sender_loop
    assert get_channel_layer()._layers[sender_loop]._publishers[0] is publisher
    assert publisher.usable
    await listener.flush()


# A database thread tidies its connections after each call (`infra.db_threads`): one an
# earlier test opened on that pooled thread is looked at, so the database must be allowed.
@pytest.mark.django_db(transaction=True)
async def test_a_database_thread_hands_its_sends_to_its_event_loop():
    listener = layer()
    channel = await subscribed(listener, "sync-sender-db-thread")
    loop = asyncio.get_running_loop()  # this test's own: nothing has sent on it yet
    assert loop not in get_channel_layer()._layers

    await db_call(group_send_all, [("sync-sender-db-thread", {"type": "tick", "n": 1})])
    assert (await receive(listener, channel))["n"] == 1
    # Written on this loop's connection to Redis, not through the sender's.
    assert get_channel_layer()._layers[loop]._publishers[0].usable
    await listener.flush()


async def test_a_send_that_fails_is_logged_and_the_next_one_goes(caplog):
    listener = layer()
    channel = await subscribed(listener, "sync-sender-failure")
    with caplog.at_level(logging.ERROR, logger="infra.group_send"):
        # An event the layer cannot encode: its send fails, the caller goes on.
        await asyncio.to_thread(group_send_all, [
            ("sync-sender-failure", {"type": "tick", "n": object()}),
            ("sync-sender-failure", {"type": "tick", "n": 2})])
    assert any("could not tell the group sync-sender-failure" in r.getMessage()
               for r in caplog.records)
    assert (await receive(listener, channel))["n"] == 2
    await listener.flush()
