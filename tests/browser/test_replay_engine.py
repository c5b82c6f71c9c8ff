"""The replay page gets a game's moves only and finds each position with the browser's
engine (games/static/games/pentagame.js): stepped through in Chromium, the pieces and
blocks it draws are the Python engine's positions, ply for ply, also while it follows a
game being played."""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.pentagame.playout import random_game
from games.pictures.pentagame import replay_frames
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results.services.results import Actor, game_record_moves

pytestmark = pytest.mark.browser

# A complete three-player game of 129 plies.
LONG_GAME = random_game(3, seed=5, max_plies=3000)

DRAWN = """
const things = document.querySelector("#pg-svg .pg-things");
const stops = (selector) => [...things.querySelectorAll(selector)].map((g) => Number(g.dataset.stop));
return {
  pieces: [...things.querySelectorAll(".pg-piece")].map(
    (g) => [Number(g.dataset.seat), g.dataset.colour, Number(g.dataset.stop)]),
  black: stops(".pg-block.pg-black"),
  grey: stops(".pg-block.pg-grey"),
  out: [...document.querySelectorAll(".pg-player")].map(
    (li) => li.querySelectorAll(".pg-out .pg-dot").length),
  to_move: [...document.querySelectorAll(".pg-player.pg-to-move")].map((li) => Number(li.dataset.seat)),
};
"""


def drawn(browser: Any) -> dict[str, Any]:
    """What the page draws now: pieces (seat, colour, stop), blocks, pieces out per seat
    and the seat to move."""
    shown = browser.execute_script(DRAWN)
    return {
        **shown,
        "pieces": sorted(map(tuple, shown["pieces"])),
        "black": sorted(shown["black"]),
        "grey": sorted(shown["grey"]),
    }


def expected(frame: dict[str, Any]) -> dict[str, Any]:
    """The same, from the Python engine's position."""
    return {
        "pieces": sorted(
            (p["seat"], p["colour"], p["stop"]) for p in frame["pieces"] if p["stop"] is not None
        ),
        "black": sorted(frame["black"]),
        "grey": sorted(g for g in frame["grey"] if g is not None),
        "out": [len(colours) for colours in frame["out"]],
        "to_move": [frame["to_move"]] if frame["to_move"] else [],
    }


def showing(browser: Any, ply: int, plies: int) -> bool:
    return browser.find_element(By.ID, "pg-ply").text == f"{ply} / {plies}"


def three_player_game() -> Game:
    tournament = tournament_with_players(3)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.get(table__round=round_, number=1)


def test_stepping_through_the_replay_draws_the_python_engines_positions(
    browser, wait, live_server, artefacts
):
    game = game_record_moves(by=Actor.command(), game=three_player_game(), moves=LONG_GAME)
    frames = replay_frames({"players": 3, "variant": "standard", "moves": LONG_GAME})
    plies = len(LONG_GAME)
    assert plies >= 100 and len(frames) == plies + 1
    browser.get(f"{live_server.url}/games/{game.pk}/?ply=37")
    body = browser.find_element(By.TAG_NAME, "body")

    def at(ply: int) -> None:
        wait(lambda b: showing(b, ply, plies))
        assert drawn(browser) == expected(frames[ply]), f"ply {ply}"

    at(37)
    browser.find_element(By.ID, "pg-next").click()
    at(38)
    body.send_keys(Keys.ARROW_RIGHT)
    at(39)
    browser.find_element(By.ID, "pg-prev").click()
    browser.find_element(By.ID, "pg-prev").click()
    at(37)
    browser.find_element(By.CSS_SELECTOR, '#pg-moves a[data-ply="88"]').click()
    at(88)
    body.send_keys(Keys.ARROW_LEFT)
    at(87)
    browser.find_element(By.ID, "pg-first").click()
    at(0)
    browser.find_element(By.ID, "pg-next").click()
    at(1)
    body.send_keys(Keys.END)
    at(plies)
    assert "game over" in browser.find_element(By.ID, "pg-status").text
    browser.save_screenshot(str(artefacts / "replay-engine-end.png"))
    browser.find_element(By.ID, "pg-prev").click()
    at(plies - 1)
    body.send_keys(Keys.HOME)
    at(0)
    browser.find_element(By.ID, "pg-last").click()
    at(plies)
    assert browser.current_url.endswith(f"?ply={plies}")


def _send_ply(server_url: str, token: str, game: Game, body: dict[str, Any]) -> None:
    """A ply from a seat's phone, through the API (the live tables' other way in)."""
    url = server_url + reverse("api:report-plies", args=[token, game.pk])
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200


def test_the_replay_of_a_game_in_progress_follows_each_ply_with_the_engines_positions(
    browser, wait, asgi_server
):
    game = three_player_game()
    token = Seat.objects.filter(table=game.table).order_by("position").first().report_token
    frames = replay_frames({"players": 3, "variant": "standard", "moves": LONG_GAME})
    for ply in range(1, 6):
        _send_ply(
            asgi_server.url,
            token,
            game,
            {"ply": ply, "move": LONG_GAME[ply - 1], "key": uuid.uuid4().hex},
        )
    browser.get(asgi_server.url + reverse("games:replay", args=[game.pk]))
    wait(lambda b: b.execute_script("return document.documentElement.dataset.live") == "socket", 15)
    wait(lambda b: showing(b, 5, 5))
    assert drawn(browser) == expected(frames[5])

    # At the newest ply, the page moves on with each ply saved.
    for ply in (6, 7):
        _send_ply(
            asgi_server.url,
            token,
            game,
            {"ply": ply, "move": LONG_GAME[ply - 1], "key": uuid.uuid4().hex},
        )
        wait(lambda b, ply=ply: showing(b, ply, ply))
        assert drawn(browser) == expected(frames[ply])
    # Stepped back, it stays where the reader is, and the record grows.
    browser.find_element(By.ID, "pg-prev").click()
    wait(lambda b: showing(b, 6, 7))
    _send_ply(
        asgi_server.url, token, game, {"ply": 8, "move": LONG_GAME[7], "key": uuid.uuid4().hex}
    )
    wait(lambda b: showing(b, 6, 8))
    assert drawn(browser) == expected(frames[6])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#pg-moves li")) == 8
    browser.find_element(By.ID, "pg-last").click()
    wait(lambda b: showing(b, 8, 8))
    assert drawn(browser) == expected(frames[8])
    # A ply taken back is gone from the replay too.
    _send_ply(asgi_server.url, token, game, {"undo": 8})
    wait(lambda b: showing(b, 7, 7))
    assert drawn(browser) == expected(frames[7])
