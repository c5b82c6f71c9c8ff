"""Record a whole game by tapping the board in Chromium, save it, and replay it."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.pentagame import format_move, parse_move
from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_moves, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.browser

# A complete two-player game of ten plies. It needs every kind of tap the page offers:
# own swaps (where the page must ask which piece on a shared corner is meant), a black
# block taken on a goal with both blocks re-placed ("abracadabra"), pieces going out,
# and at the end, with the reserve empty, a grey block moved on the board.
SHORT_GAME = [
    "RsY",
    "BsR",
    "GsY",
    "RsY",
    "Gxr:G2WzY2G",
    "Yxb:B1RzR2Y",
    "Wxw:G1WzW2B",
    "W-wzY1G",
    "Yxg:W1BzY1R",
    "G-gzY2G>W1G",
]


@pytest.fixture
def game(transactional_db: None) -> Game:
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.filter(table__round=round_).order_by("number").first()


def stop(browser: Any, stop_id: int) -> Any:
    return browser.find_element(By.CSS_SELECTOR, f'.pg-stop[data-stop="{stop_id}"]')


def plies_shown(browser: Any) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, "#pg-moves li"))


def last_ply(browser: Any) -> str | None:
    """The last ply the board lists, read in one step: the board draws its list again
    when the server's answer comes, so an element found a moment before may be gone
    (CI ci15: a stale element between finding the list and reading its text)."""
    return browser.execute_script(
        'const li = [...document.querySelectorAll("#pg-moves li")].at(-1);'
        "return li ? li.innerText.trim() : null;"
    )


def tap_move(browser: Any, wait: Any, text: str) -> None:
    """Tap one move the way a player would: piece, target, then where the blocks go."""
    move = parse_move(text)
    before = plies_shown(browser)
    stop(browser, move.frm).click()
    if move.kind != "z":
        stop(browser, move.to).click()
        bare = format_move(move._replace(black=None, grey=None, grey_from=None))
        choice = browser.find_element(By.ID, "pg-choice")
        if choice.is_displayed():
            choice.find_element(By.XPATH, f'.//button[text()="{bare}"]').click()
    if move.black is not None:
        stop(browser, move.black).click()
    if move.grey_from is not None:
        stop(browser, move.grey_from).click()
    if move.grey is not None:
        stop(browser, move.grey).click()
    wait(lambda b: plies_shown(b) == before + 1)
    assert last_ply(browser) == text


def test_a_director_records_a_whole_game_by_tapping_and_saves_it(
    browser, wait, login, live_server, game, artefacts
):
    director = UserFactory()
    game.table.round.tournament.directors.add(director)
    login(director)
    browser.get(f"{live_server.url}/games/{game.pk}/record/")
    wait(lambda b: "to move" in b.find_element(By.ID, "pg-status").text)
    # The start: every corner holds one piece of each player, the crossings the black blocks.
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pg-piece")) == 10
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pg-black")) == 5
    # The site's stylesheet styles buttons but never shows one the page has hidden.
    assert not browser.find_element(By.ID, "pg-pass").is_displayed()
    assert not browser.find_element(By.ID, "pg-choice").is_displayed()

    for ply, text in enumerate(SHORT_GAME, start=1):
        tap_move(browser, wait, text)
        if ply == 5:
            browser.save_screenshot(str(artefacts / "board-record-midgame.png"))
    assert "Game over" in browser.find_element(By.ID, "pg-status").text

    # Every ply was saved as it was made (live): the last one saved the result, a
    # director's, confirmed at once.
    wait(lambda b: "Result confirmed (finished" in b.find_element(By.ID, "pg-end").text)
    assert not browser.find_element(By.ID, "pg-save").is_displayed()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # Undo takes the last ply back (the game is in progress again) and tapping it again
    # restores it.
    browser.find_element(By.ID, "pg-undo").click()
    wait(lambda b: plies_shown(b) == len(SHORT_GAME) - 1)
    # The board draws at once (the browser's engine); the server stores it a moment later.
    wait(lambda b: Game.objects.get(pk=game.pk).moves == SHORT_GAME[:-1])
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.moves == SHORT_GAME[:-1]
    tap_move(browser, wait, SHORT_GAME[-1])
    wait(lambda b: "Result confirmed (finished" in b.find_element(By.ID, "pg-end").text)
    game.refresh_from_db()
    assert game.moves == SHORT_GAME
    assert game.status == Game.Status.FINISHED
    assert max(game.out_1, game.out_2) == 3
    browser.save_screenshot(str(artefacts / "board-record-finished.png"))


def test_the_keyboard_alone_records_a_move(browser, wait, login, live_server, game):
    director = UserFactory()
    game.table.round.tournament.directors.add(director)
    login(director)
    browser.get(f"{live_server.url}/games/{game.pk}/record/")
    wait(lambda b: "to move" in b.find_element(By.ID, "pg-status").text)
    # Tab into the board lands on a piece that may move; from W (top), Enter picks it,
    # the right arrow walks the rim to W1B and Enter moves there.
    stop(browser, 0).send_keys(Keys.ENTER)
    wait(lambda b: "choose where" in b.find_element(By.ID, "pg-status").text)
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-stop") == "10"  # W1B
    focused.send_keys(Keys.ENTER)
    wait(lambda b: plies_shown(b) == 1)
    assert browser.find_element(By.CSS_SELECTOR, "#pg-moves li").text == "W-W1B"
    # Saved before the test ends: the page sends the ply after drawing it, and a write
    # still running when the test's tables are flushed deadlocked the flush (a red CI).
    wait(lambda b: Game.objects.get(pk=game.pk).moves == ["W-W1B"])


def test_the_services_error_is_shown_beside_the_board(browser, wait, live_server, game):
    # The director entered the result already: a player's record never replaces it.
    game_record_out(game=game, out=[3, 1], by=DIRECTOR)
    token = game.table.seats.get(position=1).report_token
    browser.get(f"{live_server.url}/games/{game.pk}/record/{token}/")
    wait(lambda b: "to move" in b.find_element(By.ID, "pg-status").text)
    tap_move(browser, wait, "W-W1B")
    browser.find_element(By.ID, "pg-save").click()
    error = wait(lambda b: b.find_element(By.ID, "pg-error").text)
    assert "final result" in error
    game.refresh_from_db()
    assert game.moves == [] and game.out_list(2) == [3, 1]


def test_replay_steps_forward_and_back_and_links_to_a_position(
    browser, wait, live_server, game, artefacts
):
    game_record_moves(by=DIRECTOR, game=game, moves=SHORT_GAME)
    browser.get(f"{live_server.url}/games/{game.pk}/?ply=4")
    ply = browser.find_element(By.ID, "pg-ply")
    wait(lambda b: ply.text == f"4 / {len(SHORT_GAME)}")
    current = browser.find_element(By.CSS_SELECTOR, "#pg-moves li[aria-current]")
    assert current.text == SHORT_GAME[3]

    def pieces_out() -> int:
        return sum(1 for p in browser.find_elements(By.CSS_SELECTOR, ".pg-out .pg-dot"))

    assert pieces_out() == 0
    browser.find_element(By.ID, "pg-next").click()
    wait(lambda b: ply.text.startswith("5 /"))
    assert pieces_out() == 1  # Gxr:...z: a piece went out
    assert browser.current_url.endswith("?ply=5")
    assert browser.find_element(By.ID, "pg-link").get_attribute("href").endswith("?ply=5")
    browser.find_element(By.ID, "pg-prev").click()
    browser.find_element(By.ID, "pg-prev").click()
    wait(lambda b: ply.text.startswith("3 /"))
    browser.find_element(By.ID, "pg-last").click()
    wait(lambda b: ply.text == f"{len(SHORT_GAME)} / {len(SHORT_GAME)}")
    assert "game over" in browser.find_element(By.ID, "pg-status").text
    browser.save_screenshot(str(artefacts / "board-replay-end.png"))
    # A move in the list is a link to the position after it.
    browser.find_element(By.CSS_SELECTOR, '#pg-moves a[data-ply="2"]').click()
    wait(lambda b: ply.text.startswith("2 /"))
    browser.find_element(By.ID, "pg-first").click()
    wait(lambda b: ply.text.startswith("0 /"))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pg-piece")) == 10


@pytest.mark.parametrize(
    ("device", "width", "height"), [("phone-portrait", 390, 844), ("tablet-landscape", 1024, 768)]
)
def test_the_board_fits_phones_and_tablets(
    browser, wait, live_server, game, artefacts, device, width, height
):
    game_record_moves(by=DIRECTOR, game=game, moves=SHORT_GAME[:6])
    browser.set_window_size(width, height)
    browser.get(f"{live_server.url}/games/{game.pk}/")
    wait(lambda b: b.find_element(By.ID, "pg-ply").text.startswith("6 /"))
    board = browser.find_element(By.ID, "pg-svg")
    viewport = browser.execute_script("return document.documentElement.clientWidth")
    assert 0.5 * viewport < board.size["width"] <= viewport
    assert not browser.execute_script(
        "return document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
    browser.save_screenshot(str(artefacts / f"board-{device}.png"))
