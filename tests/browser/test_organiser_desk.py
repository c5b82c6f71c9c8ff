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

from tests.browser.standings_check import assert_page_shows_core_standings
from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Game, Round, Tournament

pytestmark = pytest.mark.browser


def page_text(browser: Any) -> str:
    # One script call: an element found just before a redirect belongs to the old page.
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def load_by_button(new_page: Any, wait: Any, text: str) -> None:
    """Click a form's button and return once the server's answer is the page shown."""
    button = wait(
        lambda b: b.find_element(By.XPATH, f"//button[normalize-space()={text!r}]"), timeout=10
    )
    new_page(button.click)


def load_by_link(new_page: Any, wait: Any, text: str) -> None:
    """Follow a link and return once the page it leads to is the page shown."""
    new_page(wait(lambda b: b.find_element(By.LINK_TEXT, text)).click)


def result_for(table: int, game: int) -> list[int]:
    """What the organiser types: seat 1 wins, the loser's pieces vary per game."""
    return [3, (table + game) % 3]


def test_a_club_evening_from_the_door_to_the_close(
    browser, wait, new_page, login, live_server, artefacts
):
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
    load_by_button(new_page, wait, "Enter")
    assert 'line 3: "Ida Imhof, abc": rating must be a number' in page_text(browser)
    box = browser.find_element(By.NAME, "players")
    assert box.get_attribute("value").splitlines()[2] == "Ida Imhof, abc"
    assert not evening.entries.exists()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("Anna, 1600\nBert, 1500\nIda Imhof, 1450\nDora, 1400\nEmil")
    load_by_button(new_page, wait, "Enter")
    assert "5 players entered." in page_text(browser)
    browser.save_screenshot(str(artefacts / "desk-players.png"))

    # The door: search as you type, Enter checks in the one player found, one tap each.
    load_by_link(new_page, wait, "Check-in at the door")
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
    load_by_link(new_page, wait, "Back to running the tournament")
    load_by_button(new_page, wait, "Propose tables for the next round")
    load_by_button(new_page, wait, "Publish round 1")
    assert "Round 1 published." in page_text(browser)
    round_ = Round.objects.get(tournament=evening, number=1)
    seated = set(round_.tables.values_list("seats__entry__player__name", flat=True))
    assert seated == here
    load_by_link(new_page, wait, "Enter results")
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
            b.execute_script(
                "return document.querySelector('#round-progress [role=status]').textContent.trim()"
            )
            == done
        ),
        timeout=20,
    )
    wait(lambda b: not b.find_elements(By.CSS_SELECTOR, "tr.result-row[data-busy]"))

    # Close the round and the evening by their buttons.
    browser.get(manage)
    load_by_button(new_page, wait, "Close round 1")
    assert "Round 1 closed" in page_text(browser)
    load_by_button(new_page, wait, "Close the evening and rate it")
    assert "The evening is closed" in page_text(browser)
    assert Tournament.objects.get(pk=evening.pk).status == Tournament.Status.FINISHED
    browser.save_screenshot(str(artefacts / "desk-evening-closed.png"))

    # The standings page against the pure core fed with what was typed.
    browser.get(f"{live_server.url}/t/club-night/standings/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "table.standings tbody tr"))
    rows = assert_page_shows_core_standings(browser, evening, outs=typed)
    # Emil, entered and never checked in, did not play: not ranked, listed apart.
    assert "Emil" not in {row.name for row in rows}
    apart = browser.find_element(By.CSS_SELECTOR, "p.not-ranked").text
    assert apart == "Did not play, no rank: Emil"
