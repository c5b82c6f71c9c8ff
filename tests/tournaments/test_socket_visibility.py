"""Live tables' sockets follow who may see (issue 41, finding 4 and items 8b, 8c): a
socket opened while the tournament was published is closed (4403) once it is unpublished,
moved or deleted, and hears nothing after; a director's socket on an event not published
keeps working; frames sent up the socket are ignored without a traceback; each address
holds at most LIVE_SOCKETS_PER_ADDRESS sockets (4429 beyond, counted in the cache, failing
open); a join that fails on a stale Redis connection is tried once more at once."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from datetime import date
from typing import Any
from urllib.parse import urlsplit

import pytest
import websockets
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connections
from redis.exceptions import ConnectionError as RedisConnectionError

from games.pentagame.playout import random_game
from tests.factories import UserFactory, tournament_with_players
from tests.live_redis import FreezingProxy
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.desk.services.tournaments import (
    tournament_delete,
    tournament_directors_set,
    tournament_update,
)
from tournaments.models import Game, Seat, Tournament
from tournaments.results import consumers as sockets
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor
from tournaments.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)

RECORD = random_game(3, seed=48, max_plies=400)


ADDRESSES = ("127.0.0.1", "10.0.0.1", "10.0.0.2", "203.0.113.1", "203.0.113.2")


@pytest.fixture(autouse=True)
def fresh_layers_and_counts(settings: Any) -> Any:
    # A layer belongs to one event loop; each test runs its own, on Redis keys of its
    # own (parallel test processes hand out the same tournament ids). The counts of open
    # sockets per address live in the cache, shared by the tests of this process.
    prefix = f"test-{uuid.uuid4().hex[:8]}:live"
    settings.CHANNEL_LAYERS = {
        alias: {**layer, "CONFIG": {**layer["CONFIG"], "prefix": prefix}}
        if "CONFIG" in layer
        else layer
        for alias, layer in settings.CHANNEL_LAYERS.items()
    }
    channel_layers.backends.clear()
    cache.delete_many([sockets.count_key(a) for a in ADDRESSES])
    yield
    channel_layers.backends.clear()
    # The consumers' and this file's database calls ran in asgiref's one sync thread:
    # its connections are closed, or the test database could not be dropped at the end.
    asyncio.run(sync_to_async(connections.close_all)())


def game_of(published: bool = True) -> tuple[Tournament, Game, Seat]:
    tournament = tournament_with_players(3, published=published)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    return tournament, game, Seat.objects.filter(table=game.table).order_by("position").first()


def ply(game: Game, seat: Seat, number: int) -> None:
    entry = ResultEntry(ply=PlyEntry(number=number, move=RECORD[number - 1], key=uuid.uuid4().hex))
    game_result_record(game=game, entry=entry, by=Actor.player(seat))


def director_of(tournament: Tournament) -> Any:
    user = UserFactory()
    tournament.directors.add(user)
    return user


async def heard_plies(ws: Any, timeout: float) -> tuple[list[int], int | None]:
    """The ply counts heard until the socket closes or ``timeout`` passes; its close code."""
    plies: list[int] = []
    deadline = time.monotonic() + timeout
    try:
        while (left := deadline - time.monotonic()) > 0:
            plies.append(json.loads(await asyncio.wait_for(ws.recv(), left))["game"]["plies"])
    except TimeoutError:
        return plies, None
    except websockets.exceptions.ConnectionClosed as closed:
        return plies, closed.rcvd.code if closed.rcvd else None
    return plies, None


# --- On the production-style stack: uvicorn, config/asgi.py, the settings' layer (Redis
# in the test command's pass 2) ---------------------------------------------------------


def test_a_socket_opened_while_published_is_closed_4403_on_unpublishing_and_hears_no_later_ply(
    asgi_server,
):
    tournament, game, seat = game_of()
    director = Actor.director(director_of(tournament))
    url = asgi_server.url.replace("http://", "ws://") + sockets.socket_path(tournament.slug)

    async def watch() -> tuple[list[int], int | None, float]:
        async with websockets.connect(url, origin=asgi_server.url) as ws:
            await database_sync_to_async(ply)(game, seat, 1)
            first, _ = await heard_plies(ws, 2)
            assert first == [1]  # heard while published
            await database_sync_to_async(tournament_update)(
                tournament=tournament, by=director, published=False
            )
            unpublished = time.monotonic()
            await database_sync_to_async(ply)(game, seat, 2)
            later, code = await heard_plies(ws, 3)
            return later, code, time.monotonic() - unpublished

    later, code, took = asyncio.run(watch())
    assert later == []  # the ply saved after unpublishing is not heard
    assert code == sockets.CLOSE_HIDDEN and took < 1


def test_frames_sent_up_the_socket_are_ignored_without_a_traceback(asgi_server, caplog):
    tournament, game, seat = game_of()
    url = asgi_server.url.replace("http://", "ws://") + sockets.socket_path(tournament.slug)
    # uvicorn's loggers do not propagate to the root logger that caplog listens on.
    server_log = logging.getLogger("uvicorn")
    server_log.addHandler(caplog.handler)

    async def watch() -> list[int]:
        async with websockets.connect(url, origin=asgi_server.url) as ws:
            for frame in ("not json", "{", "[1, 2]", b"\x00\xff binary", "x" * 1000):
                await ws.send(frame)
            await database_sync_to_async(ply)(game, seat, 1)
            plies, code = await heard_plies(ws, 2)
            assert code is None  # still open
            return plies

    try:
        with caplog.at_level(logging.INFO):
            assert asyncio.run(watch()) == [1]
    finally:
        server_log.removeHandler(caplog.handler)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


# --- The consumer on its own (Channels' communicator), on the settings' layer ------------

APP = URLRouter(websocket_urlpatterns)


def communicator(
    tournament: Tournament, user: Any = None, client: str = "10.0.0.1", headers: Any = ()
) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        APP, sockets.socket_path(tournament.slug), headers=[(b"origin", b"http://testserver")]
    )
    socket.scope["client"] = (client, 50000)
    socket.scope["headers"] = [*socket.scope["headers"], *headers]
    socket.scope["user"] = user or AnonymousUser()
    return socket


async def next_plies(socket: WebsocketCommunicator, timeout: float = 2) -> int:
    return int(json.loads(await socket.receive_from(timeout))["game"]["plies"])


async def closed_with(socket: WebsocketCommunicator, timeout: float = 1) -> int:
    output = await socket.receive_output(timeout)
    assert output["type"] == "websocket.close", output
    return int(output.get("code", 1000))


def test_a_directors_socket_on_an_event_not_published_keeps_hearing_after_a_visibility_change():
    tournament, game, seat = game_of(published=True)
    user = director_of(tournament)

    async def watch() -> None:
        director, spectator = communicator(tournament, user), communicator(tournament)
        assert (await director.connect())[0] and (await spectator.connect())[0]
        await database_sync_to_async(tournament_update)(
            tournament=tournament, by=Actor.director(user), published=False
        )
        assert await closed_with(spectator) == sockets.CLOSE_HIDDEN
        await database_sync_to_async(ply)(game, seat, 1)
        assert await next_plies(director) == 1
        await director.disconnect()

    asyncio.run(watch())


def test_a_socket_is_closed_4403_when_its_tournament_is_deleted():
    tournament, _game, _seat = game_of()
    user = director_of(tournament)

    async def watch() -> None:
        socket = communicator(tournament, user)
        assert (await socket.connect())[0]
        await database_sync_to_async(tournament_delete)(
            tournament=tournament, by=Actor.director(user)
        )
        assert await closed_with(socket) == sockets.CLOSE_HIDDEN

    asyncio.run(watch())


def test_a_socket_is_closed_4403_when_its_tournament_moves_to_another_address():
    tournament, _game, _seat = game_of()
    user = director_of(tournament)

    async def watch() -> None:
        socket = communicator(tournament, user)
        assert (await socket.connect())[0]
        await database_sync_to_async(tournament_update)(
            tournament=tournament, by=Actor.director(user), name="Renamed Open"
        )
        assert await closed_with(socket) == sockets.CLOSE_HIDDEN

    asyncio.run(watch())


def test_a_director_removed_from_an_event_not_published_loses_its_socket():
    tournament, _game, _seat = game_of(published=False)
    staying, leaving = director_of(tournament), director_of(tournament)

    async def watch() -> None:
        kept, dropped = communicator(tournament, staying), communicator(tournament, leaving)
        assert (await kept.connect())[0] and (await dropped.connect())[0]
        await database_sync_to_async(tournament_directors_set)(
            tournament=tournament, directors=[staying], by=Actor.director(staying)
        )
        assert await closed_with(dropped) == sockets.CLOSE_HIDDEN
        assert await kept.receive_nothing(0.5)
        await kept.disconnect()

    asyncio.run(watch())


def test_a_change_that_hides_nothing_leaves_the_sockets_open():
    tournament, _game, _seat = game_of()
    user = director_of(tournament)

    async def watch() -> None:
        socket = communicator(tournament)
        assert (await socket.connect())[0]
        await database_sync_to_async(tournament_update)(
            tournament=tournament, by=Actor.director(user), date=date(2027, 1, 1)
        )
        assert await socket.receive_nothing(0.5)
        await socket.disconnect()

    asyncio.run(watch())


def test_an_address_holds_at_most_the_configured_sockets_and_the_next_is_closed_4429(settings):
    settings.LIVE_SOCKETS_PER_ADDRESS = 2
    tournament, _game, _seat = game_of()

    async def watch() -> None:
        first, second = communicator(tournament), communicator(tournament)
        assert (await first.connect())[0] and (await second.connect())[0]
        third = communicator(tournament)
        assert (await third.connect())[0]  # accepted, to be told why it closes
        assert await closed_with(third) == sockets.CLOSE_TOO_MANY
        # Another address is counted on its own.
        elsewhere = communicator(tournament, client="10.0.0.2")
        assert (await elsewhere.connect())[0] and await elsewhere.receive_nothing(0.2)
        # A socket closed frees its place.
        await first.disconnect()
        again = communicator(tournament)
        assert (await again.connect())[0] and await again.receive_nothing(0.2)
        for socket in (second, elsewhere, again):
            await socket.disconnect()

    asyncio.run(watch())


def test_the_address_behind_the_proxy_is_read_as_the_site_reads_it(settings):
    settings.LIVE_SOCKETS_PER_ADDRESS = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    tournament, _game, _seat = game_of()

    def behind_proxy(forwarded: bytes) -> WebsocketCommunicator:
        # Every socket reaches the server from the proxy's address.
        return communicator(
            tournament, client="127.0.0.1", headers=[(b"x-forwarded-for", forwarded)]
        )

    async def watch() -> None:
        a, b = behind_proxy(b"203.0.113.1"), behind_proxy(b"203.0.113.2")
        assert (await a.connect())[0] and (await b.connect())[0]
        assert await a.receive_nothing(0.2) and await b.receive_nothing(0.2)
        # A client cannot escape its count by naming another address before the proxy's.
        spoofed = behind_proxy(b"198.51.100.9, 203.0.113.1")
        assert (await spoofed.connect())[0]
        assert await closed_with(spoofed) == sockets.CLOSE_TOO_MANY
        await a.disconnect()
        await b.disconnect()

    asyncio.run(watch())


def test_the_cap_fails_open_when_the_cache_is_unreachable(settings):
    settings.LIVE_SOCKETS_PER_ADDRESS = 1
    # Nothing listens on port 9: every cache call fails (config/cache.py fails open).
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    tournament, _game, _seat = game_of()

    async def watch() -> None:
        a, b = communicator(tournament), communicator(tournament)
        assert (await a.connect())[0] and (await b.connect())[0]
        assert await b.receive_nothing(0.3)
        await a.disconnect()
        await b.disconnect()

    asyncio.run(watch())


def test_a_join_that_fails_on_a_stale_redis_connection_is_tried_again_at_once(monkeypatch):
    tournament, game, seat = game_of()
    layer = get_channel_layer()
    real_group_add = layer.group_add
    calls: list[float] = []

    async def stale_once(group: str, channel: str) -> None:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise RedisConnectionError("Connection closed by server.")
        await real_group_add(group, channel)

    monkeypatch.setattr(layer, "group_add", stale_once)

    async def watch() -> None:
        socket = communicator(tournament)
        started = time.monotonic()
        assert (await socket.connect())[0]
        assert time.monotonic() - started < 1
        await database_sync_to_async(ply)(game, seat, 1)
        assert await next_plies(socket) == 1
        await socket.disconnect()

    asyncio.run(watch())
    assert len(calls) == 2


def test_a_join_on_a_pooled_redis_connection_that_hangs_is_tried_again_on_a_fresh_one(settings):
    default = settings.CHANNEL_LAYERS["default"]
    if "CONFIG" not in default:
        pytest.fail("this test needs the Redis channel layer (the test command's pass 2)")
    tournament, _game, _seat = game_of()
    host = default["CONFIG"]["hosts"][0]
    url = urlsplit(host["address"])

    async def watch() -> float:
        proxy = FreezingProxy(url.hostname or "127.0.0.1", url.port or 6379)
        port = await proxy.start()
        # The sockets' layer as production has it (a 30 s read timeout), through the proxy.
        through = {**host, "address": f"redis://127.0.0.1:{port}{url.path}"}
        settings.CHANNEL_LAYERS = {
            **settings.CHANNEL_LAYERS,
            "default": {**default, "CONFIG": {**default["CONFIG"], "hosts": [through]}},
        }
        channel_layers.backends.clear()
        first = communicator(tournament)
        assert (await first.connect())[0]  # its join leaves a connection in the pool
        await first.disconnect()
        proxy.freeze()
        second = communicator(tournament)
        started = time.monotonic()
        assert (await second.connect(timeout=10))[0]
        took = time.monotonic() - started
        # Only the join is held to this: the consumer's own receive may have taken a
        # frozen connection from the pool too, and then hears news only after the
        # layer's read timeout (not covered by the retry).
        await second.disconnect()
        proxy.close()
        return took

    assert asyncio.run(watch()) < sockets.JOIN_SECONDS + 1
