"""A season's pages in Chromium (issue 26, item 2): the standings and a player's path in
English and German, at 1,366 and 390 px. Nothing widens the page: the standings scroll
inside their own box, the rank, name and total are in sight at the start, and the
numbers shown are the season's."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.test_seasons import START, play
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_add
from tournaments.desk.services.seasons import season_create
from tournaments.desk.services.tournaments import tournament_create
from tournaments.models import Season
from tournaments.standings.selectors.seasons import season_standings_of

pytestmark = pytest.mark.browser
NAMES = [
    "Anna Berger",
    "Bert Okafor",
    "Cleo Marchetti",
    "Dora Lindqvist",
    "Emil Novak",
    "Fatma Yilmaz",
    "Gustav Brandt",
    "Hanna Kowalski-Wiśniewska",
]


@pytest.fixture
def season() -> Season:
    rng = random.Random(5)
    by = Actor.director(UserFactory(is_staff=True))
    club = ClubFactory(slug="club")
    season = season_create(
        club=club,
        name="Winter",
        starts_on=START,
        ends_on=START + datetime.timedelta(days=90),
        best_of=4,
        min_events=2,
        participation_points=2,
        by=by,
    )
    for number in range(1, 7):
        tournament = tournament_create(
            club=club,
            name=f"Evening {number}",
            by=by,
            published=True,
            season=season,
            date=START + datetime.timedelta(days=7 * number),
        )
        for name in rng.sample(NAMES, rng.randint(5, 8)):
            entry_add(tournament=tournament, name=name, by=Actor.command())
        play(tournament, rng)
    return season


def language(browser: Any, live_server: Any, code: str) -> None:
    from django.conf import settings

    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "path": "/"})


NOT_WIDER = "return document.documentElement.scrollWidth <= window.innerWidth + 1"
IN_SIGHT = """
const row = document.querySelector('table.season-table tbody tr');
const cells = [...row.children].slice(0, 3);
return cells.every((c) => { const r = c.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth + 1; });
"""


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("width", [1366, 390])
def test_the_season_page_and_a_players_path_fit_the_screen_in_both_languages(
    browser, wait, live_server, season, code, width
):
    standings = season_standings_of(season=season)
    top = standings.rows[0]
    language(browser, live_server, code)
    browser.set_window_size(width, 900)
    browser.get(f"{live_server.url}/clubs/club/seasons/{season.slug}/")
    wait(lambda d: d.find_elements(By.CSS_SELECTOR, "table.season-table tbody tr"))
    assert browser.execute_script(NOT_WIDER)
    assert browser.execute_script(IN_SIGHT)
    first = browser.find_element(By.CSS_SELECTOR, "table.season-table tbody tr")
    cells = [c.text for c in first.find_elements(By.CSS_SELECTOR, "td, th")]
    total = f"{top.total:g}".replace(".", "," if code == "de" else ".")
    assert cells[:3] == ["1", top.name, total]
    heading = browser.find_element(By.CSS_SELECTOR, "table.season-table thead th").text
    assert heading == ("Rang" if code == "de" else "Rank")
    events = browser.find_elements(By.CSS_SELECTOR, "ol.season-events li")
    assert len(events) == 6
    first.find_element(By.CSS_SELECTOR, "th a").click()
    wait(lambda d: top.name in d.find_element(By.TAG_NAME, "h1").text)
    assert browser.execute_script(NOT_WIDER)
    rows = browser.find_elements(By.CSS_SELECTOR, "main table tbody tr")
    assert len(rows) == top.played
