"""A club evening in Chromium: players report a table's result through the QR link on
the printed score sheet and the opponent confirms it; the projector picks up a new
result by itself, without reloading the page."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Round
from tournaments.results.services.results import Actor, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.browser


@pytest.fixture
def round_(transactional_db: None) -> Round:
    """Round 1 of a two-player tournament, paired and published: one table."""
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return round_


def first_game(round_: Round) -> Game:
    return Game.objects.select_related("table").get(table__round=round_, number=1)


def messages_text(browser: Any) -> str:
    # Read in one script call: an element found just before a form's redirect replaced
    # the document would belong to the old page ("Node ... does not belong to the
    # document"), which a wait does not count as "not yet".
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def test_players_report_by_the_qr_link_and_the_opponent_confirms(
    browser, wait, new_page, login, live_server, round_, artefacts
):
    tournament = round_.tournament
    game = first_game(round_)
    director = UserFactory()
    tournament.directors.add(director)
    login(director)

    # The printed sheets: a pairing sheet, then a score sheet with a QR code beside each
    # player's name, their own link.
    browser.get(f"{live_server.url}/t/{tournament.slug}/rounds/1/sheets/")
    sheet = wait(lambda b: b.find_element(By.CSS_SELECTOR, "article.score-sheet"))
    codes = sheet.find_elements(By.CSS_SELECTOR, ".player-qr svg")
    assert len(codes) == 2 and "table 1" in codes[0].get_attribute("aria-label")
    urls = [u.text.strip() for u in sheet.find_elements(By.CSS_SELECTOR, ".player-qr .url")]
    first, second = game.table.seats.order_by("position")
    assert urls == [
        f"{live_server.url}/report/{first.report_token}/",
        f"{live_server.url}/report/{second.report_token}/",
    ]
    url = urls[0]

    pdf = base64.b64decode(browser.print_page(PrintOptions()))
    assert pdf.startswith(b"%PDF")
    (artefacts / "score-sheets.pdf").write_bytes(pdf)

    # The first player scans their code: no login is needed on their own link.
    browser.delete_all_cookies()
    browser.get(url)
    form = wait(lambda b: b.find_element(By.ID, f"game-{game.pk}"))
    assert "Game 1" in form.text
    form.find_element(By.ID, f"out-{game.pk}-1").send_keys("3")
    form.find_element(By.ID, f"out-{game.pk}-2").send_keys("1")
    assert form.find_element(By.NAME, "finished").is_selected()
    report = form.find_element(By.XPATH, ".//button[normalize-space()='Report']")
    new_page(report.click)

    # The message is on the page the redirect loads.
    assert "an opponent must confirm it" in messages_text(browser)
    form = wait(lambda b: b.find_element(By.CSS_SELECTOR, f"#game-{game.pk} .muted"))
    assert "3:1" in form.text
    assert "awaiting confirmation" in form.text
    game.refresh_from_db()
    assert (game.out_1, game.out_2) == (3, 1)
    assert game.status == Game.Status.FINISHED
    assert game.reported_by_position == 1
    assert not game.confirmed
    browser.save_screenshot(str(artefacts / "report-awaiting-confirmation.png"))

    # The reporter's own page offers no confirmation; the opponent confirms on theirs.
    assert not browser.find_elements(By.CSS_SELECTOR, "form.confirm-form")
    browser.get(urls[1])
    confirm = wait(lambda b: b.find_element(By.CSS_SELECTOR, "form.confirm-form"))
    new_page(confirm.find_element(By.TAG_NAME, "button").click)

    assert "Game 1: result confirmed." in messages_text(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "form.confirm-form")
    saved = browser.find_element(By.ID, f"game-{game.pk}").text
    assert "3:1" in saved and "final" in saved
    assert "awaiting confirmation" not in saved
    browser.save_screenshot(str(artefacts / "report-confirmed.png"))

    game.refresh_from_db()
    assert game.confirmed
    assert (game.out_1, game.out_2) == (3, 1)
    assert game.status == Game.Status.FINISHED
    assert game.reported_by_position == 1


def test_the_projector_shows_a_new_result_without_reloading(
    browser, wait, live_server, round_, artefacts
):
    tournament = round_.tournament
    game = first_game(round_)
    # The shortest poll the page accepts (two seconds), and a long dwell so the slides
    # stay on the tables.
    browser.get(f"{live_server.url}/t/{tournament.slug}/projector/?poll=2&seconds=120")
    wait(lambda b: "live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    row = browser.find_element(By.CSS_SELECTOR, "#pj-tables tbody tr")
    assert "3:1" not in row.text
    assert "playing" in row.text
    assert "changed" not in row.get_attribute("class")
    # Survives only as long as this document does: a reload would wipe it.
    browser.execute_script("window.agonNoReload = 'still here';")

    game_record_out(by=DIRECTOR, game=game, out=[3, 1])

    def shows_result(b: Any) -> bool:
        games = b.find_elements(By.CSS_SELECTOR, "#pj-tables tbody tr .game")
        return bool(games) and games[0].text == "3:1"

    wait(shows_result, timeout=15)
    assert browser.execute_script("return window.agonNoReload") == "still here"
    assert browser.execute_script('return performance.getEntriesByType("navigation").length') == 1
    assert (
        browser.execute_script('return performance.getEntriesByType("navigation")[0].type')
        == "navigate"
    )
    # The table's first game has its result, the others are still to play; the row is
    # marked as changed.
    row = browser.find_element(By.CSS_SELECTOR, "#pj-tables tbody tr")
    games = row.find_elements(By.CSS_SELECTOR, ".game")
    assert [g.text for g in games] == ["3:1"] + ["—"] * (len(games) - 1)
    assert "unconfirmed" not in games[0].get_attribute("class")
    assert "changed" in row.get_attribute("class")
    assert "playing" in row.text
    assert "Updated" in browser.find_element(By.ID, "pj-status").text
    browser.save_screenshot(str(artefacts / "projector.png"))
