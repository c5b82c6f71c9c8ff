"""The egg timer as a table uses it, in Chromium (issue 42; docs/rules.md "The egg
timer"): a seat's board pauses and resumes it and the projector follows; with no device
open the projector says the time is up and it waits for the table, never "0 s left"; a
board opened after a deadline records no lost turn the table may not have lost."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.pentagame.playout import random_game
from tests.browser.test_board import plies_shown
from tests.browser.test_live_tables import socket_open
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Ply, Seat
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/P1")
MOVES = random_game(2, seed=38, max_plies=400)


def table(seconds: int) -> tuple[Game, list[Seat]]:
    tournament = tournament_with_players(2, published=True, seconds_per_move=seconds)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    order = game.moving_order(2)
    seats = {s.position: s for s in Seat.objects.filter(table=game.table)}
    return game, [seats[p] for p in order]


def first_move(game: Game, seat: Seat, ago: float = 0) -> None:
    """The first move, recorded through the seat's link ``ago`` seconds ago."""
    entry = ResultEntry(ply=PlyEntry(number=1, move=MOVES[0], key=uuid.uuid4().hex))
    game_result_record(game=game, entry=entry, by=Actor.player(seat))
    then = timezone.now() - timedelta(seconds=ago)
    Ply.objects.filter(game=game).update(at=then, received_at=then)


def shoot(browser: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"{name}.png"))


def projector_clock(browser: Any) -> str:
    return " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, "#pj-tables .clock"))


def test_a_seats_board_pauses_and_resumes_the_egg_timer_and_the_projector_says_so(
    browser, wait, asgi_server
):
    game, seats = table(seconds=60)
    first_move(game, seats[0])
    slug = game.table.round.tournament.slug
    browser.set_window_size(1366, 768)
    browser.get(asgi_server.url + reverse("projector", args=[slug]))
    wait(socket_open, 15)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    projector = browser.current_window_handle
    wait(lambda b: "s left" in projector_clock(b), 10)

    browser.switch_to.new_window("window")
    browser.set_window_size(390, 844)
    browser.get(
        asgi_server.url + reverse("games:record-token", args=[game.pk, seats[1].report_token])
    )
    wait(socket_open, 15)
    button = browser.find_element(By.ID, "pg-timer")
    wait(lambda b: button.is_displayed() and button.text == "Pause the egg timer", 5)
    button.click()
    wait(lambda b: Game.objects.get(pk=game.pk).timer_paused_at is not None, 5)
    clock = browser.find_element(By.ID, "pg-clock")
    wait(lambda b: clock.text.startswith("Egg timer paused"), 5)
    assert button.text == "Resume the egg timer"
    shoot(browser, "board-paused-390")
    browser.set_window_size(1366, 768)
    shoot(browser, "board-paused-1366")
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    board = browser.current_window_handle

    browser.switch_to.window(projector)
    wait(lambda b: projector_clock(b) == "timer paused", 10)
    shoot(browser, "projector-paused-1366")

    browser.switch_to.window(board)
    browser.set_window_size(390, 844)
    button.click()
    wait(lambda b: Game.objects.get(pk=game.pk).timer_paused_at is None, 5)
    wait(
        lambda b: (
            "s left for this move" in clock.text and not clock.text.startswith("Egg timer paused")
        ),
        5,
    )
    assert button.text == "Pause the egg timer"
    browser.switch_to.window(projector)
    wait(lambda b: "s left" in projector_clock(b), 10)


def test_with_no_device_open_the_projector_says_the_time_is_up_never_zero_seconds(
    browser, wait, asgi_server
):
    # The finding: with no device open the projector showed "0 s left" forever.
    game, seats = table(seconds=5)
    first_move(game, seats[0], ago=30)
    slug = game.table.round.tournament.slug
    browser.set_window_size(1366, 768)
    browser.get(asgi_server.url + reverse("projector", args=[slug]))
    wait(socket_open, 15)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    wait(lambda b: projector_clock(b) == "time is up: waiting for the table", 10)
    assert "0 s left" not in browser.find_element(By.ID, "pj-tables").text
    shoot(browser, "projector-time-up-1366")
    browser.set_window_size(390, 844)
    shoot(browser, "projector-time-up-390")


def test_a_board_opened_after_a_deadline_records_no_lost_turn_and_says_it_waits(
    browser, wait, asgi_server
):
    # The finding: a board reopened 16 s after a deadline recorded 2 lost turns in 3 s.
    game, seats = table(seconds=5)
    first_move(game, seats[0], ago=21)
    browser.set_window_size(390, 844)
    browser.get(
        asgi_server.url + reverse("games:record-token", args=[game.pk, seats[1].report_token])
    )
    wait(socket_open, 15)
    clock = browser.find_element(By.ID, "pg-clock")
    wait(lambda b: clock.text == "Time is up: waiting for the table", 5)
    # Long enough for a page that sends lost turns to have sent two (one per 2 s).
    time.sleep(5)
    assert plies_shown(browser) == 1
    assert list(Game.objects.get(pk=game.pk).moves) == [MOVES[0]]
    shoot(browser, "board-time-up-390")
