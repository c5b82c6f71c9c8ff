"""The live tables' channel layer (Django Channels) on Redis: one subscription per
process, fanned out in the process to its sockets.

Why not channels_redis: its RedisChannelLayer gives every socket a Redis list of its own
and a receive loop of its own; with a thousand sockets in one process each message woke
every socket's loop under one lock (O(sockets) work per socket and message: upstream
django/channels_redis#83), and the group's membership lived in Redis, so a thousand
sockets closing at once asked the pool for a thousand connections (`MaxConnectionsError`).
Its RedisPubSubChannelLayer subscribes once per group and process but still once per
socket (a Redis subscription for each socket's own channel), keeps an unbounded queue per
socket, and lets redis-py reconnect and subscribe again in silence after Redis restarts:
whatever was published in between is lost while the sockets stay open and hear nothing
of it. This layer, on redis-py's asyncio pub/sub:

- a process subscribes once per group that one of its sockets follows (one connection,
  its own), confirmed by Redis before `group_add` returns (nothing published after a
  socket joined is missed), and drops the subscription when its last socket leaves the
  group; with no group left it closes the connection;
- each message is decoded once and put on the queue of every socket of the group in the
  process; a socket's own channel is in the process only (never in Redis);
- a socket's queue holds at most `capacity` messages: a socket that falls that far behind
  is told `layer.lost` (LOST) instead, and leaves its groups;
- when the subscription fails (Redis gone, restarted, or silent for twice the heartbeat
  with a PING unanswered), every socket of the process is told `layer.lost` and leaves its
  groups; the next `group_add` subscribes afresh. The consumer closes its socket and the
  page polls, reconnects and reads the state again (tournaments/results/consumers.py), so
  a fault loses nothing;
- `group_send` publishes from a thread (a redis-py client whose blocking pool is sized,
  with the configured timeouts and one retry on a fresh connection), so that it never
  blocks the event loop it is called from.

`send` to a channel of another process is not supported (nothing here needs it), and
messages travel as JSON (a type and a text here; bytes are refused).
Settings (config/settings.py): CONFIG = {"hosts": [{"address", "socket_connect_timeout",
"socket_timeout"}], "prefix", "capacity", "heartbeat", "publish_connections"}."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import uuid
import weakref
from typing import Any

import redis
import redis.asyncio
from channels.layers import BaseChannelLayer
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

logger = logging.getLogger(__name__)

# The message every socket of a group is given when its news may have been lost.
LOST = "layer.lost"
# Errors of an unreachable or hanging Redis.
UNREACHABLE = (RedisError, OSError, TimeoutError)
# How long a read waits for the subscription's next message before the heartbeat looks.
READ_SECONDS = 1.0


class FanoutChannelLayer(BaseChannelLayer):  # type: ignore[misc]
    extensions = ["groups", "flush"]

    def __init__(
        self,
        hosts: list[dict[str, Any]] | None = None,
        prefix: str = "asgi",
        capacity: int = 100,
        heartbeat: float = 15.0,
        publish_connections: int = 8,
        expiry: int = 60,
        group_expiry: int = 86400,
        channel_capacity: Any = None,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity)
        if not hosts or len(hosts) != 1:
            raise ValueError("FanoutChannelLayer takes exactly one Redis host")
        host = hosts[0]
        self.address = str(host["address"])
        self.connect_timeout = float(host.get("socket_connect_timeout") or 1)
        self.read_timeout = float(host.get("socket_timeout") or 5)
        self.prefix = prefix
        self.heartbeat = heartbeat
        self.publish_connections = publish_connections
        self._hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = (
            weakref.WeakKeyDictionary()
        )
        self._publisher: redis.Redis | None = None
        self._publisher_lock = threading.Lock()

    # --- names and messages ---------------------------------------------------------

    def group_key(self, group: str) -> str:
        """The Redis channel of a group."""
        return f"{self.prefix}:group:{group}"

    @staticmethod
    def serialize(message: dict[str, Any]) -> bytes:
        # JSON: the live tables' messages are a type and a text (bytes are refused).
        return json.dumps(message, separators=(",", ":")).encode()

    @staticmethod
    def deserialize(data: bytes) -> dict[str, Any]:
        message = json.loads(data)
        if not isinstance(message, dict):
            raise ValueError("a channel layer message is a dict")
        return message

    def hub(self) -> _Hub:
        """This event loop's subscription and sockets (a layer belongs to every loop that
        uses it, as channels_redis's do; the live process has one)."""
        loop = asyncio.get_running_loop()
        hub = self._hubs.get(loop)
        if hub is None:
            hub = self._hubs[loop] = _Hub(self, loop)
        return hub

    # --- Channels' layer API --------------------------------------------------------

    async def new_channel(self, prefix: str = "specific.") -> str:
        name = f"{self.prefix}.{prefix}{uuid.uuid4().hex}"
        self.hub().open(name)
        return name

    async def receive(self, channel: str) -> dict[str, Any]:
        hub = self.hub()
        inbox = hub.inboxes.get(channel)
        if inbox is None:
            inbox = hub.open(channel)
        try:
            return await inbox.get()
        except asyncio.CancelledError:
            # Channels has no call for a channel's end: its consumer cancels the receive
            # when it stops (as channels_redis's pub/sub layer assumes too).
            hub.forget(channel)
            raise

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        hub = self.hub()
        if channel not in hub.inboxes:
            raise NotImplementedError("FanoutChannelLayer sends to channels of this process only")
        hub.put(channel, message)

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        await self.hub().join(self.group_key(group), channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await self.hub().leave(self.group_key(group), channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.require_valid_group_name(group)
        await asyncio.to_thread(self.publish, group, message)

    async def flush(self) -> None:
        await self.hub().close()

    # --- publishing (any thread) ----------------------------------------------------

    def publish(self, group: str, message: dict[str, Any]) -> int:
        """Publish to a group from synchronous code; the number of processes that
        follow it. A Redis that is down or hangs raises within the configured timeouts."""
        return int(self.publisher().publish(self.group_key(group), self.serialize(message)))

    def publisher(self) -> redis.Redis:
        with self._publisher_lock:
            if self._publisher is None:
                pool = redis.BlockingConnectionPool.from_url(
                    self.address,
                    max_connections=self.publish_connections,
                    timeout=self.connect_timeout,  # waiting for a free connection
                    socket_connect_timeout=self.connect_timeout,
                    socket_timeout=self.read_timeout,
                )
                # One retry, at once: a pooled connection from before Redis restarted
                # fails once and the next is fresh; more would hold the write up.
                self._publisher = redis.Redis(connection_pool=pool, retry=Retry(NoBackoff(), 1))
            return self._publisher


class _Hub:
    """One event loop's part of the layer: its sockets' queues, the groups they follow,
    and the one subscription that feeds them."""

    def __init__(self, layer: FanoutChannelLayer, loop: asyncio.AbstractEventLoop) -> None:
        self.layer = layer
        self.loop = loop
        self.inboxes: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self.groups: dict[str, set[str]] = {}  # Redis channel -> local channels
        self.joined: dict[str, set[str]] = {}  # local channel -> Redis channels
        self.subscribed: set[str] = set()  # confirmed by Redis
        self.pending: dict[str, asyncio.Future[None]] = {}
        self.lock = asyncio.Lock()
        self.pubsub: PubSub | None = None
        self.client: redis.asyncio.Redis | None = None
        self.reader: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()  # releases under way (held, not lost)

    # --- local channels -------------------------------------------------------------

    def open(self, channel: str) -> asyncio.Queue[dict[str, Any]]:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(self.layer.capacity)
        self.inboxes[channel] = inbox
        return inbox

    def forget(self, channel: str, keep_inbox: bool = False) -> None:
        """The channel leaves its groups (and, its consumer gone, the process)."""
        if not keep_inbox:
            self.inboxes.pop(channel, None)
        for name in self.joined.pop(channel, ()):
            members = self.groups.get(name)
            if members is not None:
                members.discard(channel)
                if not members:
                    task = self.loop.create_task(self.release(name))
                    self.tasks.add(task)
                    task.add_done_callback(self.tasks.discard)

    def put(self, channel: str, message: dict[str, Any]) -> bool:
        """Queue a message for a channel; when its queue is full, False, and the channel
        is told LOST and follows no group after."""
        inbox = self.inboxes.get(channel)
        if inbox is None:
            return False
        try:
            inbox.put_nowait(message)
            return True
        except asyncio.QueueFull:
            self.lose(channel)
            return False

    def lose(self, channel: str) -> None:
        """Tell one channel that its news may be lost; it follows no group after."""
        self._tell_lost(channel)
        self.forget(channel, keep_inbox=True)

    def _tell_lost(self, channel: str) -> None:
        inbox = self.inboxes.get(channel)
        if inbox is not None:
            while not inbox.empty():
                inbox.get_nowait()
            inbox.put_nowait({"type": LOST})

    # --- groups ---------------------------------------------------------------------

    async def join(self, name: str, channel: str) -> None:
        if channel not in self.inboxes:
            raise RuntimeError("group_add takes a channel of this process (new_channel())")
        async with self.lock:
            if name not in self.subscribed:
                await self._subscribe(name)
            self.groups.setdefault(name, set()).add(channel)
            self.joined.setdefault(channel, set()).add(name)

    async def leave(self, name: str, channel: str) -> None:
        members = self.groups.get(name)
        if members is None or channel not in members:
            return
        members.discard(channel)
        joined = self.joined.get(channel)
        if joined is not None:
            joined.discard(name)
            if not joined:
                del self.joined[channel]
        if not members:
            await self.release(name)

    async def release(self, name: str) -> None:
        """Unsubscribe from a group no socket here follows any more; with none left,
        close the connection."""
        async with self.lock:
            if self.groups.get(name):
                return  # joined again meanwhile
            self.groups.pop(name, None)
            if name in self.subscribed and self.pubsub is not None:
                self.subscribed.discard(name)
                # If this fails the reader finds the connection broken, or it is closed below.
                with contextlib.suppress(*UNREACHABLE):
                    await asyncio.wait_for(self.pubsub.unsubscribe(name), self.layer.read_timeout)
            if not self.groups and not self.pending:
                await self._close()

    async def _subscribe(self, name: str) -> None:
        """Subscribe (the lock held) and wait for Redis's confirmation."""
        try:
            if self.pubsub is None:
                self.client = redis.asyncio.Redis.from_url(
                    self.layer.address,
                    socket_connect_timeout=self.layer.connect_timeout,
                    socket_timeout=self.layer.read_timeout,
                    # No silent reconnection: a subscription that failed may have missed
                    # messages, and the sockets must hear of it (lost(), below).
                    retry=AsyncRetry(NoBackoff(), 0),
                    max_connections=1,
                )
                self.pubsub = self.client.pubsub()
            confirmed = self.pending[name] = self.loop.create_future()
            await asyncio.wait_for(self.pubsub.subscribe(name), self.layer.connect_timeout)
            if self.reader is None:
                self.reader = self.loop.create_task(self._read(self.pubsub))
            await asyncio.wait_for(asyncio.shield(confirmed), self.layer.read_timeout)
        except BaseException as exc:
            self.pending.pop(name, None)
            if not isinstance(exc, asyncio.CancelledError):
                # The connection cannot be trusted: start afresh, telling whoever listens.
                self._lost(exc)
                await self._close()
            raise
        self.subscribed.add(name)

    # --- the subscription -----------------------------------------------------------

    async def _read(self, pubsub: PubSub) -> None:
        heartbeat = self.layer.heartbeat
        last = self.loop.time()
        pinged = False
        try:
            while True:
                message = await pubsub.get_message(timeout=READ_SECONDS)
                now = self.loop.time()
                if message is None:
                    # Silent twice the heartbeat, a PING unanswered in between: an event
                    # loop seconds behind (thousands of sockets on a busy machine) is not
                    # taken for a dead connection, which closed every socket (issue 44).
                    if now - last > 2 * heartbeat and pinged:
                        raise TimeoutError(f"Redis has said nothing for {now - last:.0f} s")
                    if now - last > heartbeat and not pinged:
                        await asyncio.wait_for(pubsub.ping(), self.layer.read_timeout)
                        pinged = True
                    continue
                last, pinged = now, False
                kind = message["type"]
                if kind == "message":
                    self._fan_out(message["channel"], message["data"])
                elif kind == "subscribe":
                    confirmed = self.pending.pop(_text(message["channel"]), None)
                    if confirmed is not None and not confirmed.done():
                        confirmed.set_result(None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure: the sockets must hear of it
            if self.pubsub is pubsub:
                self.reader = None  # this task ends here: _close() must not wait for it
                self._lost(exc)
                await self._close()

    def _fan_out(self, name: Any, data: bytes) -> None:
        members = self.groups.get(_text(name))
        if not members:
            return
        message = self.layer.deserialize(data)
        # One dict for every socket: the consumers read it and never change it.
        inboxes = self.inboxes
        full = []
        for channel in members:
            inbox = inboxes.get(channel)
            if inbox is not None:
                try:
                    inbox.put_nowait(message)
                except asyncio.QueueFull:
                    full.append(channel)
        for channel in full:
            self.lose(channel)

    def _lost(self, exc: BaseException) -> None:
        channels = set(self.joined)
        self.groups.clear()
        self.joined.clear()
        self.subscribed.clear()
        if channels:
            logger.warning(
                "live: the Redis subscription failed (%r): %d sockets are told, their pages "
                "poll and reconnect",
                exc,
                len(channels),
            )
        for channel in channels:
            self._tell_lost(channel)
        for confirmed in self.pending.values():
            if not confirmed.done():
                confirmed.set_exception(ConnectionError("the Redis subscription failed"))
        self.pending.clear()

    async def _close(self) -> None:
        reader, self.reader = self.reader, None
        pubsub, self.pubsub = self.pubsub, None
        client, self.client = self.client, None
        self.subscribed.clear()
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        for closing in (pubsub, client):
            if closing is not None:
                with contextlib.suppress(*UNREACHABLE):
                    await asyncio.wait_for(closing.aclose(), self.layer.read_timeout)

    async def close(self) -> None:
        async with self.lock:
            self._lost(ConnectionError("flushed"))
            await self._close()
            self.inboxes.clear()


def _text(name: Any) -> str:
    return name.decode() if isinstance(name, bytes) else str(name)
