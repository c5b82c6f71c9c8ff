"""The end of a live game in Chromium (issue 42, point 8; docs/results.md "Live
tables"): each seat's board says what happens next, the seat whose confirmation is
awaited confirms there with one button, and nothing speaks of saving; a tap on a stop
with no piece to move says so."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By

from games.pentagame import replay
from games.pentagame.playout import random_game
from tests.browser.test_board import plies_shown
from tests.browser.test_live_tables import socket_open
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/P1")
# A finished 2-player game of 30 plies.
RECORD = random_game(2, seed=38, max_plies=400)


def table() -> tuple[Game, list[Seat]]:
    tournament = tournament_with_players(2, published=True)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    seats = list(Seat.objects.filter(table=game.table).order_by("position"))
    return game, seats


def open_board(browser: Any, wait: Any, url: str, game: Game, seat: Seat) -> str:
    browser.switch_to.new_window("window")
    browser.set_window_size(390, 844)
    browser.get(url + reverse("games:record-token", args=[game.pk, seat.report_token]))
    wait(socket_open, 15)
    return browser.current_window_handle


def end_text(browser: Any) -> str:
    box = browser.find_element(By.ID, "pg-end")
    return box.text if box.is_displayed() else ""


def test_the_end_of_a_live_game_asks_the_other_seat_to_confirm_on_her_board(
    browser, wait, asgi_server
):
    assert replay({"players": 2, "variant": "standard", "moves": RECORD}).finished
    game, (ann, bea) = table()
    for n, move in enumerate(RECORD[:-1], start=1):
        entry = ResultEntry(ply=PlyEntry(number=n, move=move, key=uuid.uuid4().hex))
        game_result_record(game=game, entry=entry, by=Actor.player(ann))
    reporter = open_board(browser, wait, asgi_server.url, game, ann)
    other = open_board(browser, wait, asgi_server.url, game, bea)
    # The last ply, from Ann's board as it sends one: her report of the result.
    browser.switch_to.window(reporter)
    answer = browser.execute_async_script(
        """const [url, body, done] = arguments;
        const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
        fetch(url, {method: "POST", body, headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}})
          .then((r) => r.json()).then(done, (e) => done({error: String(e)}));""",
        browser.current_url,
        json.dumps({"ply": len(RECORD), "move": RECORD[-1], "key": uuid.uuid4().hex}),
    )
    assert answer.get("status") == "finished", answer
    names = {s.position: s.entry.player.name for s in (ann, bea)}

    browser.switch_to.window(other)
    wait(lambda b: plies_shown(b) == len(RECORD), 10)
    confirm = browser.find_element(By.ID, "pg-confirm")
    wait(lambda b: confirm.is_displayed(), 5)
    assert f"{names[ann.position]} reported the result" in end_text(browser)
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "Save the record" not in page and "through their own link" not in page
    assert not browser.find_element(By.ID, "pg-save").is_displayed()
    browser.execute_script("document.getElementById('pg-end').scrollIntoView()")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "end-confirm-390.png"))

    browser.switch_to.window(reporter)
    wait(lambda b: f"awaiting {names[bea.position]}'s confirmation" in end_text(b), 10)
    assert not browser.find_element(By.ID, "pg-confirm").is_displayed()
    assert "Save the record" not in browser.find_element(By.TAG_NAME, "main").text
    browser.set_window_size(1366, 768)
    browser.save_screenshot(str(SHOTS / "end-awaiting-1366.png"))

    browser.switch_to.window(other)
    confirm.click()
    wait(lambda b: Game.objects.get(pk=game.pk).confirmed, 10)
    wait(lambda b: end_text(b).startswith("Result confirmed"), 10)
    assert not confirm.is_displayed()
    browser.switch_to.window(reporter)
    wait(lambda b: end_text(b).startswith("Result confirmed"), 10)

    # Bea's link opened again later says so too, with nothing to save.
    open_board(browser, wait, asgi_server.url, game, bea)
    assert end_text(browser).startswith("Result confirmed")
    assert not browser.find_element(By.ID, "pg-save").is_displayed()


def test_a_tap_on_a_stop_with_no_piece_to_move_says_so(browser, wait, asgi_server):
    # The finding: a tap on an empty stop said nothing.
    game, (ann, _bea) = table()
    open_board(browser, wait, asgi_server.url, game, ann)
    status = browser.find_element(By.ID, "pg-status")
    wait(lambda b: "choose a piece" in status.text, 5)
    # The stop farthest from any that can be chosen: a tap there snaps to none.
    far = browser.execute_script(
        """const stops = [...document.querySelectorAll(".pg-stop")];
        const at = (s) => { const r = s.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
        const can = stops.filter((s) => s.getAttribute("aria-disabled") === "false").map(at);
        let best = null, bestD = -1;
        for (const s of stops.filter((s) => s.getAttribute("aria-disabled") === "true")) {
          const [x, y] = at(s);
          const d = Math.min(...can.map(([cx, cy]) => Math.hypot(cx - x, cy - y)));
          if (d > bestD) { bestD = d; best = s; }
        }
        return best.dataset.stop;"""
    )
    browser.find_element(By.CSS_SELECTOR, f'.pg-stop[data-stop="{far}"]').click()
    wait(lambda b: "can move from" in status.text, 5)
    assert "choose a marked one" in status.text
    assert plies_shown(browser) == 0
