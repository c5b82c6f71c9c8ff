"""The live tables' channel layer (config/live_layer.py) on a real Redis of the test's own:
one subscription per process however many sockets follow a group, each message handed to
each socket once, the subscription dropped and its connection released when the last
socket leaves (a thousand at once included), a join confirmed by Redis before it returns,
a socket that falls behind told so, and a subscription that fails (Redis restarted, or a
connection that went silent) told to every socket, the next join subscribing afresh."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import redis

from config.live_layer import LOST, FanoutChannelLayer
from tests.live_redis import FreezingProxy, Redis

pytestmark = pytest.mark.services

GROUP = "live.tournament.1"


@pytest.fixture
def server() -> Any:
    server = Redis()
    server.start()
    yield server
    if server.process and server.process.poll() is None:
        server.kill()


def layer_on(url: str, **config: Any) -> FanoutChannelLayer:
    # A connection refused fails at once whatever the timeout; 3 s to connect keeps a
    # busy test machine (the test command's passes run side by side) from failing a
    # join that is only slow (CI ci12: a first connection took over 0.5 s).
    host = {"address": url, "socket_connect_timeout": 3, "socket_timeout": 1}
    return FanoutChannelLayer(hosts=[host], prefix="test:live", **config)


def subscribers(client: redis.Redis, layer: FanoutChannelLayer) -> int:
    return int(dict(client.pubsub_numsub(layer.group_key(GROUP)))[layer.group_key(GROUP).encode()])


def subscriber_connections(client: redis.Redis) -> int:
    """Connections in subscriber mode (CLIENT LIST's sub= and psub= counts)."""
    return sum(1 for c in client.client_list() if int(c["sub"]) or int(c["psub"]))


async def joined(layer: FanoutChannelLayer, count: int) -> list[str]:
    channels = [await layer.new_channel() for _ in range(count)]
    for channel in channels:
        await layer.group_add(GROUP, channel)
    return channels


def test_many_sockets_of_a_process_share_one_subscription_and_hear_each_message_once(server):
    layer, client = layer_on(server.url), redis.Redis.from_url(server.url)

    async def run() -> None:
        channels = await joined(layer, 500)
        assert subscribers(client, layer) == 1
        assert subscriber_connections(client) == 1
        for n in range(3):
            # Redis hands the message to one subscriber: this process.
            assert await asyncio.to_thread(layer.publish, GROUP, {"type": "t", "n": n}) == 1
        for channel in channels:
            heard = [await asyncio.wait_for(layer.receive(channel), 2) for _ in range(3)]
            assert [m["n"] for m in heard] == [0, 1, 2]
        await asyncio.sleep(0.2)
        hub = layer.hub()
        assert all(hub.inboxes[c].empty() for c in channels)  # once each, no more
        for channel in channels:
            await layer.group_discard(GROUP, channel)

    asyncio.run(run())


def test_the_last_socket_leaving_drops_the_subscription_and_releases_the_connection(server):
    layer, client = layer_on(server.url), redis.Redis.from_url(server.url)

    async def run() -> None:
        channels = await joined(layer, 1000)
        connections = len(client.client_list())
        # A thousand sockets leave at once: nothing is asked of Redis but for the last.
        await asyncio.gather(*(layer.group_discard(GROUP, c) for c in channels))
        assert subscribers(client, layer) == 0
        assert subscriber_connections(client) == 0
        assert len(client.client_list()) == connections - 1
        # And the next socket subscribes again.
        (channel,) = await joined(layer, 1)
        await asyncio.to_thread(layer.publish, GROUP, {"type": "t"})
        assert await asyncio.wait_for(layer.receive(channel), 2) == {"type": "t"}

    asyncio.run(run())


def test_a_join_returns_once_redis_has_confirmed_the_subscription(server):
    layer, client = layer_on(server.url), redis.Redis.from_url(server.url)

    async def run() -> None:
        for _ in range(20):
            (channel,) = await joined(layer, 1)
            # Published at once from another connection, it reaches this process.
            assert client.publish(layer.group_key(GROUP), layer.serialize({"type": "t"})) == 1
            assert await asyncio.wait_for(layer.receive(channel), 2) == {"type": "t"}
            await layer.group_discard(GROUP, channel)

    asyncio.run(run())


def test_a_socket_that_falls_behind_is_told_and_leaves_the_others_hearing(server):
    layer = layer_on(server.url, capacity=5)

    async def run() -> None:
        slow, quick = await joined(layer, 2)
        for n in range(8):
            await layer.group_send(GROUP, {"type": "t", "n": n})
            assert (await asyncio.wait_for(layer.receive(quick), 2))["n"] == n
        assert await asyncio.wait_for(layer.receive(slow), 2) == {"type": LOST}
        await layer.group_send(GROUP, {"type": "t", "n": 8})
        assert (await asyncio.wait_for(layer.receive(quick), 2))["n"] == 8
        assert layer.hub().inboxes[slow].empty()  # out of the group

    asyncio.run(run())


def test_redis_restarting_is_told_to_every_socket_and_the_next_join_subscribes_again(server):
    layer = layer_on(server.url)

    async def run() -> None:
        channels = await joined(layer, 50)
        server.kill()
        started = time.monotonic()
        for channel in channels:
            assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": LOST}
        assert time.monotonic() - started < 3
        # While Redis is down a join fails, quickly.
        (down,) = [await layer.new_channel()]
        with pytest.raises((redis.RedisError, OSError, TimeoutError)):
            await asyncio.wait_for(layer.group_add(GROUP, down), 3)
        server.start()  # back, on the same port, empty
        again = await joined(layer, 3)
        assert await asyncio.to_thread(layer.publish, GROUP, {"type": "t"}) == 1
        for channel in again:
            assert await asyncio.wait_for(layer.receive(channel), 2) == {"type": "t"}

    asyncio.run(run())


def test_a_subscription_gone_silent_is_found_by_the_heartbeat_and_told(server):
    layer_url = server.url

    async def run() -> float:
        proxy = FreezingProxy("127.0.0.1", server.port)
        port = await proxy.start()
        layer = layer_on(f"redis://127.0.0.1:{port}/0", heartbeat=1)
        channels = await joined(layer, 10)
        proxy.freeze()  # the connection stays open and carries nothing
        started = time.monotonic()
        for channel in channels:
            assert await asyncio.wait_for(layer.receive(channel), 10) == {"type": LOST}
        took = time.monotonic() - started
        # A fresh connection (through the proxy, not frozen) subscribes and hears.
        again = await joined(layer, 1)
        publisher = layer_on(layer_url)
        # Redis counts the frozen connection too: the proxy holds its side open.
        assert await asyncio.to_thread(publisher.publish, GROUP, {"type": "t"}) == 2
        assert await asyncio.wait_for(layer.receive(again[0]), 2) == {"type": "t"}
        proxy.close()
        return took

    # Twice the heartbeat (1 s), a PING unanswered in between, read every second.
    assert asyncio.run(run()) < 4.5
