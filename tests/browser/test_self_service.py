"""Players manage their own night, in Chromium at 1,366 and 390 px, in English and
German (issue 46, part 3): the player's link with its three choices, a tap on "late",
and the run page and the results screen showing her late and a no-show offered as a
forfeit with one key. Screenshots go to var/artefacts/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from tests.factories import UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.night import seat_seen
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Round, Seat, SeatNotice

pytestmark = pytest.mark.browser
BY = Actor.command()
WORDS = {
    "en": {"late": "please wait", "flag": "late, asked the table to wait", "forfeit": "Forfeit"},
    "de": {"late": "bitte warten", "flag": "kommt später", "forfeit": "Kampflos"},
}


@pytest.fixture
def night(transactional_db: None) -> dict[str, Any]:
    tournament = tournament_with_players(4, rounds_planned=3, no_show_minutes=10)
    user = UserFactory()
    tournament.directors.add(user)
    round_ = round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    # The round started 12 minutes ago by the server's clock; at table 1 the first seat
    # was seen and the second was not: a no-show.
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=12))
    seats = list(
        Seat.objects.filter(round=round_, table__is_bye=False).order_by("table__number", "position")
    )
    seat_seen(seat=seats[0], by=BY)
    return {"slug": tournament.slug, "user": user, "late": seats[2]}


def _fits(browser: Any) -> None:
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert width <= inner, "the page is wider than the window"


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_player_says_she_is_late_and_the_organiser_sees_it_and_the_no_show(
    browser: Any,
    wait: Any,
    live_server: Any,
    login: Any,
    night: dict[str, Any],
    artefacts: Any,
    language: str,
) -> None:
    from django.conf import settings

    words = WORDS[language]
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    link = f"{live_server.url}/report/{night['late'].report_token}/"
    for width in (1366, 390):
        browser.set_window_size(width, 900 if width > 400 else 844)
        browser.get(link)
        wait(lambda b: b.find_elements(By.CSS_SELECTOR, "#night button"))
        buttons = browser.find_elements(By.CSS_SELECTOR, "#night button[name=choice]")
        assert [b.get_attribute("value") for b in buttons] == ["late", "skip", "leave"]
        assert words["late"] in buttons[0].text
        browser.execute_script("document.getElementById('night').scrollIntoView()")
        browser.save_screenshot(str(artefacts / f"self-service-player-{width}-{language}.png"))
        _fits(browser)
    browser.find_element(By.CSS_SELECTOR, "#night button[value=late]").click()
    wait(lambda b: not b.find_elements(By.CSS_SELECTOR, "#night button[value=late]"))
    assert SeatNotice.objects.filter(seat=night["late"], kind="late").exists()
    login(night["user"])
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    pages = {
        "run": f"{live_server.url}/t/{night['slug']}/manage/",
        "results": f"{live_server.url}/t/{night['slug']}/manage/rounds/1/results/",
    }
    for name, url in pages.items():
        for width in (1366, 390):
            browser.set_window_size(width, 900 if width > 400 else 844)
            browser.get(url)
            wait(lambda b: b.find_elements(By.CSS_SELECTOR, "#night .night-late"))
            section = browser.find_element(By.ID, "night")
            assert words["flag"] in section.text
            assert section.find_elements(By.CSS_SELECTOR, ".night-no-show button")
            browser.execute_script("document.getElementById('night').scrollIntoView()")
            browser.save_screenshot(str(artefacts / f"self-service-{name}-{width}-{language}.png"))
            _fits(browser)
    # The organiser's one key forfeits the no-show through the results screen.
    browser.find_element(By.CSS_SELECTOR, ".night-no-show form button").click()
    wait(lambda b: not b.find_elements(By.CSS_SELECTOR, "#night .night-no-show"))
    assert SeatNotice.objects.filter(kind="forfeit").count() == 1
