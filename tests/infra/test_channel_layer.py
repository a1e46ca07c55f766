"""The channel layer's publishing connection (`infra.channel_layer`), on the real
Redis: what it publishes reaches another layer's subscribers in order, what Redis refuses is
logged, and a connection Redis dropped is made again by the next send."""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio
from django.conf import settings

from infra.channel_layer import RedisPubSubChannelLayer


def layer(address: str | None = None) -> RedisPubSubChannelLayer:
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    if address is not None:
        config["hosts"] = [{"address": address}]
    return RedisPubSubChannelLayer(**config)


async def subscribed(listener: RedisPubSubChannelLayer, group: str) -> str:
    channel = await listener.new_channel()
    await listener.group_add(group, channel)
    return channel


async def receive(listener: RedisPubSubChannelLayer, channel: str) -> dict:
    return await asyncio.wait_for(listener.receive(channel), 5)


async def test_what_is_published_reaches_another_layers_subscribers_in_order():
    sender, listener = layer(), layer()
    channel = await subscribed(listener, "publisher-order")
    for n in range(50):
        await sender.group_send("publisher-order", {"type": "tick", "n": n})
    heard = [(await receive(listener, channel))["n"] for _ in range(50)]
    assert heard == list(range(50))
    await sender.flush()
    await listener.flush()


async def test_a_command_redis_refuses_is_logged(caplog):
    # A password Redis does not expect: its AUTH is refused, and so is the PUBLISH after it
    # if Redis requires one; either way the refusal is in the log.
    address = settings.REDIS_URL.replace("redis://", "redis://:not-the-password@")
    sender = layer(address)
    with caplog.at_level(logging.ERROR, logger="infra.channel_layer"):
        await sender.group_send("publisher-refused", {"type": "tick"})
        for _ in range(100):
            if caplog.records:
                break
            await asyncio.sleep(0.02)
        await sender.flush()
    assert any("Redis refused a command" in r.getMessage() for r in caplog.records)


async def test_a_connection_redis_dropped_is_made_again_by_the_next_send():
    sender, listener = layer(), layer()
    channel = await subscribed(listener, "publisher-again")
    await sender.group_send("publisher-again", {"type": "tick", "n": 1})
    assert (await receive(listener, channel))["n"] == 1

    publisher = sender._get_layer()._publishers[0]
    host, port = publisher.transport.get_extra_info("sockname")[:2]
    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    try:
        await client.client_kill(f"{host}:{port}")  # only this connection: Redis is shared
    finally:
        await client.aclose()
    for _ in range(250):  # until this process has seen the connection close
        if not publisher.usable:
            break
        await asyncio.sleep(0.02)
    assert not publisher.usable

    await sender.group_send("publisher-again", {"type": "tick", "n": 2})
    assert (await receive(listener, channel))["n"] == 2
    await sender.flush()
    await listener.flush()
