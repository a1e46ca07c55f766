"""The channel layer's batched subscriptions (`infra.channel_subscriptions`), on the real
Redis: a burst of sockets subscribes in a few round trips and every one of them hears its
group; a channel left and entered again in one batch is entered; a caller that gives up
leaves the others' subscriptions whole."""

from __future__ import annotations

import asyncio
import uuid

from tests.infra.test_channel_layer import layer, receive


def _count_subscribe_commands(listener) -> list[int]:
    """Wrap the layer's one shard's pub/sub `subscribe` to count the commands it sends."""
    shard = listener._get_layer()._shards[0]
    shard._ensure_redis()
    sent = [0]
    original = shard._pubsub.subscribe

    async def counted(*channels):
        sent[0] += 1
        return await original(*channels)

    shard._pubsub.subscribe = counted
    return sent


async def test_a_burst_of_sockets_subscribes_in_a_few_round_trips_and_all_hear():
    sender, listener = layer(), layer()
    group = f"burst-{uuid.uuid4().hex[:8]}"
    sent = _count_subscribe_commands(listener)

    async def socket() -> str:
        channel = await listener.new_channel()
        await listener.group_add(group, channel)
        return channel

    channels = await asyncio.gather(*(socket() for _ in range(300)))
    # 600 subscriptions (each socket's channel and the group): one at a time they would be
    # 301 commands (the group once); batched they are a handful.
    assert 1 <= sent[0] <= 20
    await sender.group_send(group, {"type": "tick", "n": 1})
    heard = await asyncio.gather(*(receive(listener, channel) for channel in channels))
    assert [message["n"] for message in heard] == [1] * 300
    await sender.flush()
    await listener.flush()


async def test_a_channel_left_and_entered_again_at_once_is_entered():
    sender, listener = layer(), layer()
    first, second = await listener.new_channel(), await listener.new_channel()
    group = f"again-{uuid.uuid4().hex[:8]}"
    await listener.group_add(group, first)
    # The last member leaves and another arrives while the unsubscription waits its turn.
    await asyncio.gather(listener.group_discard(group, first),
                         listener.group_add(group, second))
    await sender.group_send(group, {"type": "tick", "n": 2})
    assert (await receive(listener, second))["n"] == 2
    await sender.flush()
    await listener.flush()


async def test_a_caller_that_gives_up_leaves_the_batch_whole():
    sender, listener = layer(), layer()
    group = f"given-up-{uuid.uuid4().hex[:8]}"
    channels = [await listener.new_channel() for _ in range(20)]
    adds = [asyncio.ensure_future(listener.group_add(group, channel)) for channel in channels]
    adds[0].cancel()  # as a handshake that timed out
    await asyncio.gather(*adds, return_exceptions=True)
    await sender.group_send(group, {"type": "tick", "n": 3})
    heard = await asyncio.gather(*(receive(listener, channel) for channel in channels[1:]))
    assert [message["n"] for message in heard] == [3] * 19
    await sender.flush()
    await listener.flush()
