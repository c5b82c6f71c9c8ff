"""Names in Chromium (issue 42, "Why" 7 and 10): a pasted list where one line is a club
player written in other capitals and spaces, and one is only close to a player's name,
comes back as a confirmation page: "matched to existing player …" for the first, a
choice between the player and a new one for the second; nothing is entered until the
organiser answers, and then nobody twice. The new-tournament form in its groups, with
the club and today's date filled in, fits 1,366 and 390 px without sideways scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots/P4")


def text(browser: Any) -> str:
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def fits(browser: Any) -> bool:
    """Nothing wider than the window: no sideways scroll."""
    return bool(
        browser.execute_script(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


def shots(browser: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1366, 900), (390, 844)):
        browser.set_window_size(width, height)
        browser.save_screenshot(str(SHOTS / f"{name}-{width}.png"))
        assert fits(browser), f"{name} scrolls sideways at {width} px"
    browser.set_window_size(1280, 900)


def click(new_page: Any, browser: Any, label: str) -> None:
    button = browser.find_element(By.XPATH, f"//button[normalize-space()={label!r}]")
    new_page(button.click)


def test_pasted_names_are_matched_or_asked_about_never_doubled(
    browser, wait, new_page, login, live_server
):
    evening = TournamentFactory(
        kind=Tournament.Kind.EVENING, slug="club-night", name="Club night", published=True
    )
    cleo = PlayerFactory(club=evening.club, name="Cleo Marchetti")
    dora = PlayerFactory(club=evening.club, name="Dora Lindqvist")
    director = UserFactory()
    evening.directors.add(director)
    login(director)
    browser.get(f"{live_server.url}/t/club-night/manage/")
    box = wait(lambda b: b.find_element(By.NAME, "players"))
    box.send_keys("cleo   marchetti, 1500\nDora Lindquist\nBert Aho")
    click(new_page, browser, "Enter")

    page = text(browser)
    assert "Whom do these names mean?" in page
    assert "matched to existing player Cleo Marchetti" in page
    assert "existing player Dora Lindqvist" in page
    assert not evening.entries.exists()
    shots(browser, "paste-confirm")

    browser.find_element(By.CSS_SELECTOR, f"input[name='line-2'][value='{dora.pk}']").click()
    click(new_page, browser, "Enter the players")
    wait(lambda b: evening.entries.count() == 3)
    assert "3 players entered." in text(browser)
    assert set(evening.entries.values_list("player_id", flat=True)) >= {cleo.pk, dora.pk}
    assert sorted(Player.objects.filter(club=evening.club).values_list("name", flat=True)) == [
        "Bert Aho",
        "Cleo Marchetti",
        "Dora Lindqvist",
    ]


def test_the_new_tournament_form_in_groups_with_its_defaults_fits_both_widths(
    browser, wait, login, live_server
):
    club = ClubFactory(name="Riverside")
    organiser = UserFactory()
    club.organisers.add(organiser)
    login(organiser)
    browser.get(f"{live_server.url}/t/new/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "fieldset.settings-group"))
    club_box = browser.find_element(By.NAME, "club")
    assert club_box.get_attribute("value") == str(club.pk)
    assert browser.find_element(By.NAME, "date").get_attribute("value") == (
        timezone.localdate().isoformat()
    )
    legends = [
        e.text for e in browser.find_elements(By.CSS_SELECTOR, "fieldset.settings-group > legend")
    ]
    assert legends == ["Event", "Pairing", "Scoring"]
    shots(browser, "tournament-form")
    browser.find_element(By.CSS_SELECTOR, "details.settings-group > summary").click()
    shots(browser, "tournament-form-advanced")


def test_the_club_rating_list_fits_both_widths(browser, wait, live_server):
    ClubFactory(slug="riverside", name="Riverside")
    browser.get(f"{live_server.url}/ratings/clubs/riverside/")
    wait(lambda b: b.find_elements(By.TAG_NAME, "table"))
    shots(browser, "rating-list")
