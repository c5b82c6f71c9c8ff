"""Live tables in Chromium on the production-style server (uvicorn serving config/asgi.py
with its sockets, PostgreSQL, Redis): two phones at one 3-player table record a game
alternately through their seats' links while a projector shows each ply as it is saved;
the stored record is the engine's; the finished game shows its result on the round page."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.pentagame import replay
from games.pentagame.playout import random_game
from tests.browser.test_board import last_ply, plies_shown, tap_move
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser

# The shortest finished 3-player game among the first 300 seeds: 87 plies.
RECORD = random_game(3, seed=48, max_plies=400)
# Plies tapped on the boards at the start and at the end; the rest are sent by a phone's
# page as its board sends them (the same request), to keep the test short.
TAPPED_FIRST, TAPPED_LAST = 7, 3


@pytest.fixture
def table(asgi_server: Any) -> tuple[Game, list[Seat]]:
    tournament = tournament_with_players(3, published=True)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    return game, list(Seat.objects.filter(table=game.table).order_by("position"))


def socket_open(browser: Any) -> bool:
    return browser.execute_script("return document.documentElement.dataset.live") == "socket"


def projector_ply(browser: Any) -> str:
    return " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, "#pj-tables .game.live"))


def test_two_phones_record_a_three_player_game_alternately_while_the_projector_follows_each_ply(
    browser, wait, asgi_server, table, artefacts
):
    game, seats = table
    slug = game.table.round.tournament.slug
    phones = {}
    for seat in seats[:2]:
        browser.switch_to.new_window("window")
        browser.set_window_size(390, 844)
        browser.get(
            asgi_server.url + reverse("games:record-token", args=[game.pk, seat.report_token])
        )
        wait(socket_open, 15)
        phones[seat.position] = browser.current_window_handle
    browser.switch_to.new_window("window")
    browser.set_window_size(1366, 768)
    browser.get(asgi_server.url + reverse("projector", args=[slug]))
    wait(socket_open, 15)
    # Paused on the tables (the space bar), as an organiser stops the rotation to the
    # standings while the round is played.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    projector = browser.current_window_handle
    order = [phones[1], phones[2]]

    def tap(ply: int) -> None:
        """The phone whose turn it is to record taps ply ``ply``; the other phone and the
        projector show it without a reload."""
        browser.switch_to.window(order[ply % 2])
        wait(lambda b: plies_shown(b) == ply - 1, 10)
        tap_move(browser, wait, RECORD[ply - 1])
        browser.switch_to.window(order[(ply + 1) % 2])
        wait(lambda b: plies_shown(b) == ply, 5)
        if ply < len(RECORD):  # the last ply ends the game: its result shows instead
            browser.switch_to.window(projector)
            wait(lambda b: projector_ply(b).endswith(f"ply {ply}"), 5)

    for ply in range(1, TAPPED_FIRST + 1):
        tap(ply)
    browser.switch_to.window(projector)
    assert browser.find_elements(By.CSS_SELECTOR, "#pj-tables .pg-mini .pg-piece")
    browser.save_screenshot(str(artefacts / "live-projector.png"))

    # The middle of the game: sent from phone 1's page as its board sends a ply.
    browser.switch_to.window(phones[1])
    last_middle = len(RECORD) - TAPPED_LAST
    for ply in range(TAPPED_FIRST + 1, last_middle + 1):
        answer = browser.execute_async_script(
            """const [url, body, done] = arguments;
            const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
            fetch(url, {method: "POST", body, headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}})
              .then((r) => r.json()).then(done, (e) => done({error: String(e)}));""",
            browser.current_url,
            json.dumps({"ply": ply, "move": RECORD[ply - 1], "key": uuid.uuid4().hex}),
        )
        assert answer.get("ok"), answer
    for ply in range(last_middle + 1, len(RECORD) + 1):
        tap(ply)

    browser.switch_to.window(order[len(RECORD) % 2])
    wait(lambda b: "finished" in b.find_element(By.ID, "pg-end").text, 10)
    game.refresh_from_db()
    result = replay({"players": 3, "variant": "standard", "moves": game.moves})
    assert game.moves == RECORD and result.finished
    assert game.status == Game.Status.FINISHED
    moving = game.moving_order(3)
    out = [None] * 3
    for engine_seat, position in enumerate(moving):
        out[position - 1] = min(result.out[engine_seat], game.target)
    assert game.out_list(3) == out

    browser.switch_to.window(projector)
    wait(lambda b: ":".join(map(str, out)) in b.find_element(By.ID, "pj-tables").text, 10)
    browser.get(asgi_server.url + reverse("round-detail", args=[slug, game.table.round.number]))
    assert ":".join(map(str, out)) in browser.find_element(By.ID, "round-live").text


def test_the_egg_timer_on_a_phone_passes_the_seat_that_did_not_move_in_time(
    browser, wait, asgi_server, table
):
    """Section 3: "A player who does not move in time loses turn." With five seconds
    per move, the board counts down after the first ply and then records the pass."""
    game, seats = table
    tournament = game.table.round.tournament
    tournament.seconds_per_move = 5
    tournament.save(update_fields=["seconds_per_move"])
    browser.set_window_size(390, 844)
    browser.get(
        asgi_server.url + reverse("games:record-token", args=[game.pk, seats[0].report_token])
    )
    wait(socket_open, 15)
    tap_move(browser, wait, RECORD[0])
    clock = browser.find_element(By.ID, "pg-clock")
    wait(lambda b: clock.is_displayed() and "s left" in clock.text, 5)
    wait(lambda b: plies_shown(b) == 2, 15)
    assert last_ply(browser) == "pass"
    # Drawn at once, stored a moment later (the offline queue sends it).
    wait(lambda b: len(Game.objects.get(pk=game.pk).moves) == 2)
    game.refresh_from_db()
    assert game.moves == [RECORD[0], "pass"]
    assert game.plies.get(number=2).timed_out


def test_a_phone_shows_the_last_ply_when_the_answers_to_its_catch_ups_come_slowly(
    browser, wait, asgi_server, table
):
    """Two plies announced close together make the page read the game twice; when the
    answers come slowly, the first read's answer used to count as a ply drawn on the
    phone meanwhile, and the second read's (the newer state) was thrown away: the page
    stayed a ply behind until the next ply. Each read now waits for the one before."""
    game, seats = table
    pages = {}
    for seat in seats[:2]:
        browser.switch_to.new_window("window")
        browser.set_window_size(390, 844)
        browser.get(
            asgi_server.url + reverse("games:record-token", args=[game.pk, seat.report_token])
        )
        wait(socket_open, 15)
        pages[seat.position] = browser.current_window_handle
    # The second phone reads the game's state slowly: every answer (to a request sent at
    # once, so it holds the state of that moment) arrives 1.5 s late.
    browser.switch_to.window(pages[2])
    browser.execute_script(
        """const real = window.fetch;
        window.fetch = (url, options) =>
          String(url).includes("/state/")
            ? real(url, options).then((answer) => new Promise((done) => setTimeout(() => done(answer), 1500)))
            : real(url, options);"""
    )
    browser.switch_to.window(pages[1])
    for ply in (1, 2):
        answer = browser.execute_async_script(
            """const [url, body, done] = arguments;
            const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
            fetch(url, {method: "POST", body, headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}})
              .then((r) => r.json()).then(done, (e) => done({error: String(e)}));""",
            browser.current_url,
            json.dumps({"ply": ply, "move": RECORD[ply - 1], "key": uuid.uuid4().hex}),
        )
        assert answer.get("ok"), answer
    browser.switch_to.window(pages[2])
    wait(lambda b: plies_shown(b) == 2, 10)


def test_the_projector_never_steps_back_to_an_older_ply_its_poll_brought_late(
    browser, wait, asgi_server, table
):
    """CI (ci13, production layout) saw the projector a ply behind for 5 s: its poll
    (every few seconds, for results and standings) read the round while ply 3 was being
    saved, the socket brought ply 3 at once, and the poll's answer, arriving after it,
    drew ply 2 again. Here the poll's answers are held until the socket's newer ply is
    shown: the projector keeps the newer ply."""
    game, seats = table
    slug = game.table.round.tournament.slug
    by = Actor.player(seats[0])
    browser.get(asgi_server.url + reverse("projector", args=[slug]) + "?poll=2")
    wait(socket_open, 15)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)  # stay on the tables
    # A poll answered "not modified" goes through; one with news is held until released.
    browser.execute_script(
        """const real = window.fetch;
        window.held = [];
        window.fetch = (url, options) =>
          !String(url).includes("data.json")
            ? real(url, options)
            : real(url, options).then((answer) => answer.status !== 200 ? answer : new Promise((done) => {
                window.held.push(() => { done(answer); setTimeout(() => { window.applied = true; }, 500); });
              }));"""
    )
    game_result_record(
        game=game, entry=ResultEntry(ply=PlyEntry(number=1, move=RECORD[0], key="p1")), by=by
    )
    wait(lambda b: projector_ply(b).endswith("ply 1"), 10)
    # A poll after ply 1 read the round with ply 1: its answer is held.
    wait(lambda b: b.execute_script("return window.held.length") >= 1, 10)
    game_result_record(
        game=game, entry=ResultEntry(ply=PlyEntry(number=2, move=RECORD[1], key="p2")), by=by
    )
    wait(lambda b: projector_ply(b).endswith("ply 2"), 10)
    browser.execute_script("window.held.forEach((release) => release())")
    wait(lambda b: b.execute_script("return window.applied === true"), 10)
    shown = browser.execute_script(
        """return [...document.querySelectorAll("#pj-tables .game.live")]
          .map((e) => e.innerText).join(" ")"""
    )
    assert shown.endswith("ply 2"), shown
