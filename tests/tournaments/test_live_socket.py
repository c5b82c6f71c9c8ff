"""The live tables' socket on the production-style stack (uvicorn serving config/asgi.py,
PostgreSQL, a Redis channel layer): a ply saved through a player's link reaches a
spectator's socket; with the layer's Redis dead, plies are still saved (PostgreSQL is the
record) and the projector's poll shows them; once Redis is back a new socket hears the
next ply. Who may listen is who may see the tournament."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
import urllib.request
import uuid
from http.cookiejar import CookieJar
from typing import Any

import pytest
import redis as redis_client
import websockets
from channels.layers import get_channel_layer
from django.urls import reverse

from games.pentagame.playout import random_game
from tests.factories import tournament_with_players
from tests.live_redis import Redis
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results import consumers as sockets
from tournaments.results.services.broadcast import tournament_group
from tournaments.results.services.results import Actor

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RECORD = random_game(3, seed=48, max_plies=400)


@pytest.fixture
def redis(settings: Any):
    """The channel layer on a Redis of the test's own (both of the settings' names), as
    config/settings.py has it."""
    server = Redis()
    server.start()
    prefix = f"test-{uuid.uuid4().hex[:8]}:live"

    def layer(read: float) -> dict[str, Any]:
        host = {"address": server.url, "socket_connect_timeout": 0.5, "socket_timeout": read}
        return {
            "BACKEND": "config.live_layer.FanoutChannelLayer",
            "CONFIG": {"hosts": [host], "prefix": prefix},
        }

    settings.CHANNEL_LAYERS = {"default": layer(1), "send": layer(0.5)}
    yield server
    if server.process and server.process.poll() is None:
        server.kill()


def published_game() -> tuple[Game, list[Seat]]:
    tournament = tournament_with_players(3, published=True)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    return game, list(Seat.objects.filter(table=game.table).order_by("position"))


class Link:
    """A player's phone: her record link, with the cookie and token its page carries."""

    def __init__(self, base: str, game: Game, seat: Seat) -> None:
        self.url = base + reverse("games:record-token", args=[game.pk, seat.report_token])
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        page = self.opener.open(self.url, timeout=10).read().decode()
        self.csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def ply(self, number: int, move: str) -> dict[str, Any]:
        body = json.dumps({"ply": number, "move": move, "key": uuid.uuid4().hex}).encode()
        request = urllib.request.Request(
            self.url,
            data=body,
            headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf},
        )
        with self.opener.open(request, timeout=10) as answer:
            return json.loads(answer.read())


def socket_url(base: str, game: Game) -> str:
    slug = (
        Game.objects.filter(pk=game.pk)
        .values_list("table__round__tournament__slug", flat=True)
        .get()
    )
    return base.replace("http://", "ws://") + f"/ws/t/{slug}/live/"


async def next_state(ws: Any, plies: int, timeout: float = 5) -> dict[str, Any]:
    """The first message announcing the game with ``plies`` plies."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if message["game"]["plies"] == plies:
            return message["game"]


async def _heard(url: str, origin: str) -> None:
    async with websockets.connect(url, origin=origin):
        pass


def test_a_ply_saved_through_a_link_reaches_a_spectators_socket_with_the_board(asgi_server, redis):
    game, seats = published_game()
    phone = Link(asgi_server.url, game, seats[0])

    url = socket_url(asgi_server.url, game)

    async def watch() -> dict[str, Any]:
        async with websockets.connect(url, origin=asgi_server.url) as ws:
            await asyncio.to_thread(phone.ply, 1, RECORD[0])
            return await next_state(ws, 1)

    state = asyncio.run(watch())
    assert state["game"] == game.pk and state["status"] == "in_progress"
    assert state["last"] == RECORD[0]
    assert state["board"]["ply"] == 1 and state["to_move"] == game.moving_order(3)[1]


def test_many_sockets_of_a_process_share_one_subscription_and_hear_each_ply_once(
    asgi_server, redis, settings
):
    settings.LIVE_SOCKETS_PER_ADDRESS = 100
    game, seats = published_game()
    phone = Link(asgi_server.url, game, seats[0])
    url = socket_url(asgi_server.url, game)
    layer = get_channel_layer()
    key = layer.group_key(tournament_group(game.table.round.tournament_id))
    client = redis_client.Redis.from_url(redis.url)

    def subscribers() -> int:
        return int(dict(client.pubsub_numsub(key))[key.encode()])

    async def watch() -> list[list[int]]:
        spectators = [await websockets.connect(url, origin=asgi_server.url) for _ in range(60)]
        assert subscribers() == 1  # one for the process, not one per socket
        for n in (1, 2):
            await asyncio.to_thread(phone.ply, n, RECORD[n - 1])

        async def heard(ws: Any) -> list[int]:
            plies: list[int] = []
            with contextlib.suppress(TimeoutError):
                while True:
                    message = await asyncio.wait_for(ws.recv(), 1)
                    plies.append(json.loads(message)["game"]["plies"])
            return plies

        plies = await asyncio.gather(*(heard(ws) for ws in spectators))
        for ws in spectators:
            await ws.close()
        return plies

    assert asyncio.run(watch()) == [[1, 2]] * 60  # each ply once, to every socket
    # The last socket gone, the process's subscription and its connection are released.
    deadline = time.monotonic() + 5
    while subscribers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert subscribers() == 0
    assert not [c for c in client.client_list() if int(c["sub"])]


def test_with_the_layers_redis_dead_plies_are_saved_and_polled_and_a_new_socket_hears_them_after(
    asgi_server, redis
):
    game, seats = published_game()
    phone = Link(asgi_server.url, game, seats[0])
    phone.ply(1, RECORD[0])
    url = socket_url(asgi_server.url, game)

    async def cut() -> tuple[int | None, float]:
        # A socket open when Redis goes is closed (its page polls, reconnects and reads
        # the state again): it could not hear what is saved meanwhile.
        async with websockets.connect(url, origin=asgi_server.url) as ws:
            redis.kill()
            started = time.monotonic()
            with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            return ws.close_code, time.monotonic() - started

    code, took = asyncio.run(cut())
    assert code == sockets.CLOSE_LOST and took < 3
    for n in (2, 3):
        answer = phone.ply(n, RECORD[n - 1])
        assert answer["moves"] == RECORD[:n]  # saved, with the layer gone
    game.refresh_from_db()
    assert game.moves == RECORD[:3]
    # The projector's poll (its fallback) shows the game as it is.
    data_url = asgi_server.url + reverse("projector-data", args=[game.table.round.tournament.slug])
    polled = json.loads(urllib.request.urlopen(data_url, timeout=10).read())
    (polled_game,) = [g for t in polled["tables"] for g in t["games"] if g["id"] == game.pk]
    assert polled_game["plies"] == 3 and polled_game["live"]["plies"] == 3

    redis.start()  # back, on the same port, empty

    async def watch() -> dict[str, Any]:
        async with websockets.connect(url, origin=asgi_server.url) as ws:
            await asyncio.to_thread(phone.ply, 4, RECORD[3])
            return await next_state(ws, 4)

    assert asyncio.run(watch())["last"] == RECORD[3]


def test_a_tournament_not_published_refuses_an_anonymous_socket(asgi_server, redis):
    tournament = tournament_with_players(3, published=False)
    # A published one on the same server is heard: the refusal is about who may see.
    game, _seats = published_game()
    asyncio.run(_heard(socket_url(asgi_server.url, game), asgi_server.url))

    async def connect() -> None:
        url = asgi_server.url.replace("http://", "ws://") + f"/ws/t/{tournament.slug}/live/"
        async with websockets.connect(url, origin=asgi_server.url) as ws:
            await ws.recv()

    # Refused at the handshake, as for any page that may not be seen.
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        asyncio.run(connect())
    assert refused.value.response.status_code == 403


def test_a_socket_from_another_sites_page_is_refused(asgi_server, redis):
    game, _seats = published_game()
    url = socket_url(asgi_server.url, game)

    async def connect() -> None:
        async with websockets.connect(url, origin="http://evil.example"):
            pass

    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        asyncio.run(connect())
    assert refused.value.response.status_code == 403
