"""The organiser's results screen in Chromium: a whole round entered with the keyboard
only (no click, no page load), a refused entry corrected in place, and the public
standings page picking up the round's results by itself; the standings it shows are the
pure core's for the results typed."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser.standings_check import core_standings
from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Round
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.browser


@pytest.fixture
def round_(transactional_db: None) -> Round:
    """Round 1 of seven players, published: two 2-player tables and one 3-player table."""
    tournament = tournament_with_players(7)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return round_


def typed(seats: int, game: int, table: int) -> list[int]:
    """A different, legal result per game: the winner has 3 pieces out."""
    out = [(table + game + i) % 3 for i in range(seats)]
    out[(table + game) % seats] = 3
    return out


def keys(browser: Any, text: str) -> None:
    ActionChains(browser).send_keys(text).perform()


def active_id(browser: Any) -> str:
    return str(browser.execute_script("return document.activeElement.id"))


def page_rows(browser: Any) -> dict[str, float]:
    """Each player's score as the standings page shows it."""
    return {
        name: float(score)
        for name, score in browser.execute_script(
            "return [...document.querySelectorAll('table.standings tbody tr')]"
            ".filter(r => r.cells.length > 2)"
            ".map(r => [r.cells[1].querySelector('a').innerText.trim(), r.cells[2].innerText.trim()])"
        )
    }


def core_scores(round_: Round) -> dict[str, float]:
    """The pure core's standings for the results now stored."""
    return {row.name: round(row.score, 1) for row in core_standings(round_.tournament)}


def test_a_round_is_entered_with_keys_only_and_the_standings_follow_live(
    browser, wait, login, live_server, round_, artefacts
):
    tournament = round_.tournament
    director = UserFactory()
    tournament.directors.add(director)
    login(director)
    rows = list(
        Game.objects.filter(table__round=round_)
        .select_related("table")
        .order_by("table__number", "number")
    )
    seats = {t.pk: t.seats.count() for t in round_.tables.all()}
    assert len(rows) == 8 and sorted(set(seats.values())) == [2, 3]

    browser.get(f"{live_server.url}/t/{tournament.slug}/manage/rounds/1/results/")
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    browser.execute_script("window.agonNoReload = 'still here';")
    progress = browser.find_element(By.ID, "round-progress")
    assert progress.text == "0 of 8 games in"
    # The screen starts in the first game: no click needed.
    assert active_id(browser) == f"out-{rows[0].pk}"

    # A refused entry: the service's message next to that game, nothing saved; Shift+Tab
    # goes back to it and the corrected entry is saved.
    keys(browser, "39" + Keys.ENTER)
    error = wait(lambda b: b.find_element(By.ID, f"error-{rows[0].pk}").text)
    assert "seat 2: pieces out must be between 0 and 3, not 9" in error
    assert browser.find_element(By.ID, f"out-{rows[0].pk}").get_attribute("aria-invalid") == "true"
    assert active_id(browser) == f"out-{rows[1].pk}"
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert active_id(browser) == f"out-{rows[0].pk}"

    expected: dict[int, list[int]] = {}
    presses = 0
    for game in rows:
        n = seats[game.table_id]
        out = typed(n, game.number, game.table.number)
        expected[game.pk] = out
        text = "".join(map(str, out)) + Keys.ENTER
        presses += len(text)
        keys(browser, text)
    assert presses <= 4 * len(rows)

    # Read in one script call: a live update may replace the line between finding it and
    # reading it.
    wait(
        lambda b: (
            b.execute_script(
                "return document.querySelector('#round-progress [role=status]').textContent.trim()"
            )
            == "8 of 8 games in"
        ),
        timeout=20,
    )
    wait(lambda b: not b.find_elements(By.CSS_SELECTOR, "tr.result-row[data-busy]"))
    assert not browser.find_elements(By.CSS_SELECTOR, "tr.result-row[data-invalid]")
    assert browser.find_element(By.ID, f"error-{rows[0].pk}").text == ""
    # The way on: Enter after the last game lands on closing the round, not on nothing.
    wait(
        lambda b: b.execute_script(
            "return document.activeElement.closest('#round-progress .way-on') !== null"
        ),
        timeout=10,
    )
    assert "close round 1" in browser.switch_to.active_element.text
    for game in rows:
        game.refresh_from_db()
        assert game.out_list(seats[game.table_id]) == expected[game.pk], game.pk
        assert game.confirmed and game.status == "finished"
    # No page was loaded again: the same document all along, and every save answered 200.
    assert browser.execute_script("return window.agonNoReload") == "still here"
    assert browser.execute_script('return performance.getEntriesByType("navigation").length') == 1
    # The saves and polls are htmx's requests (XMLHttpRequest).
    statuses = browser.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.initiatorType === 'xmlhttprequest' && e.name.includes('/results/'))"
        ".map(e => e.responseStatus)"
    )
    assert statuses.count(400) == 1 and set(statuses) <= {200, 304, 400}
    browser.save_screenshot(str(artefacts / "results-screen.png"))

    # The public standings page, open before the round closes, updates itself.
    browser.get(f"{live_server.url}/t/{tournament.slug}/standings/")
    browser.execute_script("window.agonNoReload = 'still here';")
    assert set(page_rows(browser).values()) == {0.0}
    round_close(round=round_, by=Actor.command())
    wait(lambda b: "after 1 closed round" in b.find_element(By.TAG_NAME, "main").text, timeout=20)
    assert page_rows(browser) == core_scores(round_)

    # A correction of the closed round: the page follows again, still without a reload.
    before = page_rows(browser)
    corrected = rows[0]
    corrected.refresh_from_db()
    game_record_out(game=corrected, out=[0, 3], by=Actor.director(director), correction=True)
    wait(lambda b: page_rows(b) != before, timeout=20)
    assert page_rows(browser) == core_scores(round_)
    assert browser.execute_script("return window.agonNoReload") == "still here"
    browser.save_screenshot(str(artefacts / "standings-live.png"))


def test_a_players_report_appears_on_the_screen_while_the_organiser_keeps_typing(
    browser, wait, login, live_server, round_
):
    tournament = round_.tournament
    director = UserFactory()
    tournament.directors.add(director)
    login(director)
    first, second = list(
        Game.objects.filter(table__round=round_).select_related("table").order_by("pk")
    )[:2]
    browser.get(f"{live_server.url}/t/{tournament.slug}/manage/rounds/1/results/")
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    browser.execute_script("window.agonNoReload = 'still here';")
    assert active_id(browser) == f"out-{first.pk}"
    keys(browser, "3")  # typed, not yet left: nothing is saved

    seat = second.table.seats.get(position=1)
    game_record_out(
        game=second,
        out=[1, 3] if seat.table.seats.count() == 2 else [1, 3, 0],
        by=Actor.player(seat),
    )

    def shows_report(b: Any) -> bool:
        return bool(
            b.execute_script(
                "const row = document.getElementById(arguments[0]);"
                "return row && row.querySelector('form.accept-form') !== null;",
                f"game-{second.pk}",
            )
        )

    wait(shows_report, timeout=20)
    field = browser.find_element(By.ID, f"out-{first.pk}")
    assert field.get_attribute("value") == "3" and active_id(browser) == f"out-{first.pk}"
    assert browser.execute_script("return window.agonNoReload") == "still here"

    # The report is accepted on the screen with one button; the round's progress follows.
    browser.find_element(By.CSS_SELECTOR, f"#game-{second.pk} form.accept-form button").click()
    wait(
        lambda b: (
            b.execute_script(
                "return document.querySelector('#round-progress [role=status]').textContent.trim()"
            )
            == "1 of 8 games in"
        ),
        timeout=20,
    )
    second.refresh_from_db()
    assert second.confirmed and second.out_1 == 1
    assert browser.find_element(By.ID, f"out-{first.pk}").get_attribute("value") == "3"
