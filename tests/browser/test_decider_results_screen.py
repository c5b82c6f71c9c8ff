"""The 3-player decider on the results screen, in Chromium: the save that ties a match at
the top brings the decider's row in without a page load, its result settles the match,
and a correction that unties it turns the row void (docs/scoring.md, section 8)."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Round
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser


@pytest.fixture
def round_(transactional_db: None) -> Round:
    """Round 1 of three players with deciders: one 3-player table, published."""
    tournament = tournament_with_players(3, policy="prefer-triples", decider=True)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return round_


def keys(browser: Any, text: str) -> None:
    ActionChains(browser).send_keys(text).perform()


def group_text(browser: Any, table_id: int) -> str:
    # One script call: a save's answer may replace the group between finding and reading.
    return str(
        browser.execute_script(
            "return document.getElementById(arguments[0])?.innerText ?? ''", f"match-{table_id}"
        )
    )


def test_the_decider_comes_and_goes_on_the_results_screen_with_the_saves(
    browser, wait, login, live_server, round_
):
    tournament = round_.tournament
    director = UserFactory()
    tournament.directors.add(director)
    login(director)
    one, two = Game.objects.filter(table__round=round_).order_by("number")
    table = one.table_id
    browser.get(f"{live_server.url}/t/{tournament.slug}/manage/rounds/1/results/")
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    browser.execute_script("window.agonNoReload = 'still here';")
    # No poll: what follows comes with the saves' own answers.
    browser.execute_script("document.getElementById('live-poll').remove()")
    assert group_text(browser, table).strip() == ""
    # Both games 0:3:3: seats 2 and 3 tied at the top on 9.
    keys(browser, "033" + Keys.ENTER + "033" + Keys.ENTER)
    wait(lambda b: "play the decider" in group_text(b, table), timeout=20)
    decider = Game.objects.get(table_id=table, decider=True)
    field = browser.find_element(By.ID, f"out-{decider.pk}")
    assert field.get_attribute("data-seats") == "2"
    field.click()
    keys(browser, "31" + Keys.ENTER)
    wait(lambda b: "Match won by P02 in the decider" in group_text(b, table), timeout=20)
    # A correction of game 2 unties the match: the played decider is void, kept in view.
    second = browser.find_element(By.ID, f"out-{two.pk}")
    second.click()
    browser.execute_script("arguments[0].select()", second)
    keys(browser, "032" + Keys.ENTER)
    wait(lambda b: "no longer tied at the top" in group_text(b, table), timeout=20)
    assert "Match won by P02" in group_text(browser, table)
    assert browser.find_elements(By.CSS_SELECTOR, f"#game-{decider.pk}.is-voided")
    assert browser.execute_script("return window.agonNoReload") == "still here"
