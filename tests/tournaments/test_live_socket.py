"""The live tables' socket on the production-style stack (uvicorn serving config/asgi.py,
PostgreSQL, a Redis channel layer): a ply saved through a player's link reaches a
spectator's socket; with the layer's Redis dead, plies are still saved (PostgreSQL is the
record) and the projector's poll shows them; once Redis is back a new socket hears the
next ply. Who may listen is who may see the tournament."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
import subprocess
import time
import urllib.request
import uuid
from http.cookiejar import CookieJar
from typing import Any

import pytest
import websockets
from django.urls import reverse

from games.pentagame.playout import random_game
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results.services.results import Actor

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RECORD = random_game(3, seed=48, max_plies=400)


class Redis:
    """A Redis of this test's own, so that killing it touches nothing else."""

    def __init__(self) -> None:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server, "redis-server is installed by the test command"
        self.process = subprocess.Popen(
            [
                server,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        pytest.fail("the test's Redis did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


@pytest.fixture
def redis(settings: Any):
    """The channel layer on a Redis of the test's own (both of the settings' names)."""
    server = Redis()
    server.start()
    layer = {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [{"address": server.url, "socket_connect_timeout": 0.5, "socket_timeout": 30}]
        },
    }
    settings.CHANNEL_LAYERS = {"default": layer, "send": layer}
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


def test_with_the_layers_redis_dead_plies_are_saved_and_polled_and_a_new_socket_hears_them_after(
    asgi_server, redis
):
    game, seats = published_game()
    phone = Link(asgi_server.url, game, seats[0])
    phone.ply(1, RECORD[0])
    redis.kill()
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
    url = socket_url(asgi_server.url, game)

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
