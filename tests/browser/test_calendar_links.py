"""The club's and the season's calendar links in Chromium, at 390 px in English and
German: the link is on the page, nothing is cut off, and what it fetches is the feed.
Screenshots go to var/artefacts/."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.seasons import season_create
from tournaments.desk.services.tournaments import tournament_create

pytestmark = pytest.mark.browser
DAY = datetime.date(2026, 3, 5)
WORDS = {
    "en": {"club": "Calendar", "season": "calendar"},
    "de": {"club": "Kalender", "season": "Kalender"},
}


@pytest.fixture
def club(transactional_db: None) -> tuple[str, str]:
    org = Actor.director(UserFactory(is_staff=True))
    club = ClubFactory(name="Pentagame-Club Köln", slug="koeln", city="Köln")
    season = season_create(
        club=club, name="Frühjahr 2026", starts_on=DAY, ends_on=DAY.replace(month=6), by=org
    )
    tournament_create(
        club=club, name="Club evening", by=org, date=DAY, published=True, season=season
    )
    return club.slug, season.slug


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_calendar_links_fetch_the_feed_and_read_on_a_phone(
    browser: Any, wait: Any, live_server: Any, club: tuple[str, str], artefacts: Any, language: str
) -> None:
    from django.conf import settings

    club_slug, season_slug = club
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    for name, path in (
        ("club", f"/clubs/{club_slug}/"),
        ("season", f"/clubs/{club_slug}/seasons/{season_slug}/"),
    ):
        browser.get(live_server.url + path)
        wait(lambda b: b.execute_script("return document.readyState") == "complete")
        link = browser.find_element(By.CSS_SELECTOR, 'a[type="text/calendar"]')
        assert link.text == WORDS[language][name]
        browser.save_screenshot(str(artefacts / f"calendar-{name}-390-{language}.png"))
        width, inner = browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert width <= inner, f"the {name} page is wider than the phone"
        # What the link fetches is the feed, with the club's event in it.
        browser.set_script_timeout(10)
        answer = browser.execute_async_script(
            """const done = arguments[arguments.length - 1];
            fetch(arguments[0]).then(async r => done([r.headers.get('content-type'),
                await r.text()])).catch(e => done(['error', String(e)]));""",
            link.get_attribute("href"),
        )
        assert answer[0] == "text/calendar; charset=utf-8", answer
        assert "BEGIN:VCALENDAR" in answer[1] and "SUMMARY:Club evening" in answer[1]
