"""Live tables' socket (Django Channels): a page that shows a tournament's games joins
its group and hears each game's new state as soon as it is saved (services/
broadcast.py). Who may listen is who may see the tournament (permissions.can_view),
checked when the socket opens and again whenever the tournament is unpublished, moved,
deleted or loses a director (then 4403). A socket whose news may have been lost (the
layer's Redis subscription failed, or the socket fell behind) is closed with 1012, and
its page reads the state again once it reconnects. An address holds at most
LIVE_SOCKETS_PER_ADDRESS sockets (then 4429). Anything sent up the socket is ignored. A
page whose socket fails polls instead (tournaments/results/static/agon/live_socket.js)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

from tournaments.core.permissions import can_view
from tournaments.models import Tournament
from tournaments.results.services.broadcast import MESSAGE, tournament_group

logger = logging.getLogger(__name__)

# The socket's route (tournaments/routing.py); pages are told its path by socket_path().
SOCKET_ROUTE = "ws/t/<slug:slug>/live/"
# Close codes the page acts on (docs/operations.md): this visitor may no longer see the
# tournament at this address (stop, poll no more); too many sockets from this address
# (poll instead).
CLOSE_HIDDEN = 4403
CLOSE_TOO_MANY = 4429
# A count outlives a process killed without closing its sockets by this much at most.
COUNT_SECONDS = 6 * 3600
# Joining the group is one Redis round trip (config/live_layer.py: a subscription, the
# process's first socket of the tournament only): one that hangs is given up after this.
JOIN_SECONDS = 2
# The layer's word that news for this socket may have been lost (config/live_layer.py:
# Redis's subscription failed, or the socket fell too far behind): the socket is closed
# with this code and its page polls, reconnects and reads the state again.
LAYER_LOST = "layer.lost"
CLOSE_LOST = 1012


def socket_path(slug: str) -> str:
    return "/" + SOCKET_ROUTE.replace("<slug:slug>", slug)


def count_key(address: str) -> str:
    return f"live-sockets:{address}"


def _address(scope: dict[str, Any]) -> str:
    """The visitor's address, read as config/clientip.py reads a request's: X-Forwarded-For
    only for the NUM_PROXIES proxies the deployment says are in front."""
    proxies = int(settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0)
    forwarded = dict(scope.get("headers") or []).get(b"x-forwarded-for", b"").decode("latin-1")
    if proxies and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return str((scope.get("client") or ("",))[0])


def _count_in(address: str) -> tuple[str | None, int]:
    """This socket counted for its address: (the key, the count), or (None, 0) when the
    cache is unreachable (fails open, like config/cache.py) or the count just expired."""
    key = count_key(address)
    try:
        cache.add(key, 0, COUNT_SECONDS)
        return key, cache.incr(key)
    except (ValueError, RedisError, OSError):
        return None, 0


def _count_out(key: str) -> None:
    # Expired or unreachable: nothing to take back.
    with contextlib.suppress(ValueError, RedisError, OSError):
        cache.decr(key)


@database_sync_to_async
def _admit(slug: str, user: Any, address: str) -> tuple[int | None, str | None, int]:
    """The tournament's id if the visitor may see it (None if not), and the socket's count."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not can_view(user, tournament):
        return None, None, 0
    return tournament.pk, *_count_in(address)


@database_sync_to_async
def _still_viewable(tournament_id: int, slug: str, user: Any) -> bool:
    tournament = Tournament.objects.filter(pk=tournament_id, slug=slug).first()
    return tournament is not None and can_view(user, tournament)


async def _join(layer: Any, group: str, channel: str) -> None:
    try:
        await asyncio.wait_for(layer.group_add(group, channel), JOIN_SECONDS)
    except (RedisError, OSError, TimeoutError):
        # A connection from before Redis went away can fail or hang once it is back: the
        # layer drops it (config/live_layer.py), and the join is tried once more at once,
        # on a fresh one.
        await asyncio.wait_for(layer.group_add(group, channel), JOIN_SECONDS)


class LiveTablesConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    group: str | None = None
    tournament_id: int | None = None
    counted: str | None = None  # the cache key this socket is counted under

    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        tournament_id, self.counted, count = await _admit(
            self.slug, self.scope.get("user"), _address(self.scope)
        )
        if tournament_id is None:
            await self.close()  # before accepting: the handshake is refused (403)
            return
        if count > settings.LIVE_SOCKETS_PER_ADDRESS:
            await self._uncount()
            await self.accept()  # accepted, so that the page hears why it closes
            await self.close(code=CLOSE_TOO_MANY)
            return
        group = tournament_group(tournament_id)
        try:
            await _join(self.channel_layer, group, self.channel_name)
        except (RedisError, OSError, TimeoutError) as exc:
            logger.warning("live: a socket could not join %s (the page polls): %r", group, exc)
            await self._uncount()
            await self.close()
            return
        self.tournament_id, self.group = tournament_id, group
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self._leave()
        await self._uncount()

    async def _leave(self) -> None:
        if self.group is not None:
            group, self.group = self.group, None
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _uncount(self) -> None:
        if self.counted is not None:
            key, self.counted = self.counted, None
            await sync_to_async(_count_out)(key)

    async def tournament_visibility(self, message: dict[str, Any]) -> None:
        """The tournament was unpublished, moved, deleted or lost a director: this
        visitor listens on only if the socket's own check would still let it in."""
        if self.tournament_id is None or self.group is None:
            return
        if not await _still_viewable(self.tournament_id, self.slug, self.scope.get("user")):
            await self._leave()  # nothing more is sent, even news already queued
            await self.close(code=CLOSE_HIDDEN)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # A saved game's news goes straight out: Channels' dispatch first closes the
        # thread's old database connections in a worker thread, a hop per message and
        # socket that saturated the event loop with hundreds of spectators
        # (bench/live_load.py); this handler touches no database.
        kind = message.get("type")
        if kind == MESSAGE:
            if self.group is not None:
                await self.send(text_data=message["text"])
            return
        if kind == LAYER_LOST:
            # This socket's news may be lost: its page reads the state again once it
            # has reconnected (live_socket.js), or polls meanwhile.
            if self.group is not None:
                self.group = None  # the layer has taken it out of its groups already
                await self.close(code=CLOSE_LOST)
            return
        # Pages send nothing: whatever comes up (text or binary, JSON or not) is dropped
        # here, without that hop and without decoding it.
        if kind == "websocket.receive":
            return
        await super().dispatch(message)
