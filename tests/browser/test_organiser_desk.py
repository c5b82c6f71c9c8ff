"""A club evening in Chromium from the door to the close, by clicks and keys only: a
pasted list with a typo comes back with the bad line named and the text kept; check-in
by search and one tap each, without reloading; tables, results, closing the round and
the evening; the standings page agrees with the pure standings core."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Game, Round, Tournament
from tournaments.selectors.standings import scoring_settings
from tournaments.standings import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

pytestmark = pytest.mark.browser


def page_text(browser: Any) -> str:
    # One script call: an element found just before a redirect belongs to the old page.
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def click_button(browser: Any, wait: Any, text: str) -> None:
    button = wait(
        lambda b: b.find_element(By.XPATH, f"//button[normalize-space()={text!r}]"), timeout=10
    )
    button.click()


def click_link(browser: Any, wait: Any, text: str) -> None:
    wait(lambda b: b.find_element(By.LINK_TEXT, text)).click()


def result_for(table: int, game: int) -> list[int]:
    """What the organiser types: seat 1 wins, the loser's pieces vary per game."""
    return [3, (table + game) % 3]


def test_a_club_evening_from_the_door_to_the_close(browser, wait, login, live_server, artefacts):
    evening = TournamentFactory(
        kind=Tournament.Kind.EVENING, slug="club-night", name="Club night", published=True
    )
    director = UserFactory()
    evening.directors.add(director)
    login(director)
    manage = f"{live_server.url}/t/club-night/manage/"
    browser.get(manage)

    # A typo in the pasted list: refused, the bad line named, the whole text kept.
    box = wait(lambda b: b.find_element(By.NAME, "players"))
    box.send_keys("Anna, 1600\nBert, 1500\nIda Imhof, abc\nDora, 1400\nEmil")
    click_button(browser, wait, "Enter")
    wait(lambda b: 'line 3: "Ida Imhof, abc": rating must be a number' in page_text(b))
    box = browser.find_element(By.NAME, "players")
    assert box.get_attribute("value").splitlines()[2] == "Ida Imhof, abc"
    assert not evening.entries.exists()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("Anna, 1600\nBert, 1500\nIda Imhof, 1450\nDora, 1400\nEmil")
    click_button(browser, wait, "Enter")
    wait(lambda b: "5 players entered." in page_text(b))
    browser.save_screenshot(str(artefacts / "desk-players.png"))

    # The door: search as you type, Enter checks in the one player found, one tap each.
    click_link(browser, wait, "Check-in at the door")
    search = wait(lambda b: b.find_element(By.ID, "check-in-search"))
    browser.execute_script("window.agonNoReload = 'still here';")
    search.send_keys("dor")
    wait(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#check-in-list li:not([hidden])")) == 1)
    search.send_keys(Keys.ENTER)
    wait(lambda b: "1 of 5 checked in" in b.find_element(By.ID, "check-in-count").text)
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)
    for name in ("anna", "bert", "ida imhof"):
        row = browser.find_element(By.CSS_SELECTOR, f"#check-in-list li[data-name='{name}']")
        row.find_element(By.TAG_NAME, "button").click()
        wait(
            lambda b, row=row: (
                row.find_element(By.TAG_NAME, "button").get_attribute("aria-pressed") == "true"
            )
        )
    wait(lambda b: "4 of 5 checked in" in b.find_element(By.ID, "check-in-count").text)
    assert browser.execute_script("return window.agonNoReload") == "still here"
    # The page's own script file runs under the Content-Security-Policy, without errors.
    log = browser.get_log("browser")
    assert [e for e in log if "Content Security Policy" in e["message"]] == []
    assert [e for e in log if e["level"] == "SEVERE" and "check_in.js" in e["message"]] == []
    browser.save_screenshot(str(artefacts / "desk-check-in.png"))
    here = set(evening.entries.filter(checked_in=True).values_list("player__name", flat=True))
    assert here == {"Anna", "Bert", "Ida Imhof", "Dora"}

    # Tables for the four who came (Emil did not), published, results typed in.
    click_link(browser, wait, "Back to running the tournament")
    click_button(browser, wait, "Propose tables for the next round")
    click_button(browser, wait, "Publish round 1")
    wait(lambda b: "Round 1 published." in page_text(b))
    round_ = Round.objects.get(tournament=evening, number=1)
    seated = set(round_.tables.values_list("seats__entry__player__name", flat=True))
    assert seated == here
    click_link(browser, wait, "Enter results")
    games = list(
        Game.objects.filter(table__round=round_)
        .select_related("table")
        .order_by("table__number", "number")
    )
    # The results screen starts in the first game: each game's pieces out typed, Enter
    # saves it in the background and moves on.
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    typed: dict[int, list[int]] = {}
    for game in games:
        out = result_for(game.table.number, game.number)
        wait(
            lambda b, game=game: b.switch_to.active_element.get_attribute("id") == f"out-{game.pk}"
        )
        ActionChains(browser).send_keys("".join(map(str, out)) + Keys.ENTER).perform()
        typed[game.pk] = out
    done = f"{len(games)} of {len(games)} games in"
    wait(
        lambda b: (
            b.execute_script("return document.getElementById('round-progress').textContent.trim()")
            == done
        ),
        timeout=20,
    )
    wait(lambda b: not b.find_elements(By.CSS_SELECTOR, "tr.result-row[data-busy]"))

    # Close the round and the evening by their buttons.
    browser.get(manage)
    click_button(browser, wait, "Close round 1")
    wait(lambda b: "Round 1 closed" in page_text(b))
    click_button(browser, wait, "Close the evening and rate it")
    wait(lambda b: "The evening is closed" in page_text(b))
    assert Tournament.objects.get(pk=evening.pk).status == Tournament.Status.FINISHED
    browser.save_screenshot(str(artefacts / "desk-evening-closed.png"))

    # The standings page against the pure core fed with what was typed.
    entries = list(evening.entries.select_related("player").order_by("seed"))
    tables = []
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        seats = [str(s.entry_id) for s in table.seats.order_by("position")]
        results = [GameResult(tuple(typed[g.pk])) for g in games if g.table_id == table.pk]
        tables.append(TableResult(seats=tuple(seats), games=tuple(results)))
    byes = tuple(str(s.entry_id) for t in round_.tables.filter(is_bye=True) for s in t.seats.all())
    expected = compute_standings(
        [StandingsPlayer(id=str(e.pk), rating=float(e.rating or 0), seed=e.seed) for e in entries],
        [RoundResult(number=1, tables=tuple(tables), byes=byes)],
        settings=scoring_settings(evening),
    )
    names = {str(e.pk): e.player.name for e in entries}
    browser.get(f"{live_server.url}/t/club-night/standings/")
    rows = wait(lambda b: b.find_elements(By.CSS_SELECTOR, "table.standings tbody tr"))
    shown = [
        (
            row.find_element(By.CSS_SELECTOR, "th a").text,
            float(row.find_elements(By.CSS_SELECTOR, "td.num")[1].text),
        )
        for row in rows
    ]
    assert shown == [(names[r.player], round(r.score, 1)) for r in expected]
    assert shown[-1][0] == "Emil"  # entered, never checked in: absent
