"""The link between a venue and the club's site in Chromium (docs/venue.md), in English
and German at 1,366 and 390 px: the run page's line in each state of the link (published
a while ago, no connection since, rounds waiting; on the club's site: run at a venue,
read-only), the event's link page and the club's tokens. The line is loaded by the run
page itself: each test waits for the state the server rendered into it. Screenshots go to
var/artefacts/."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.link.selectors import venue_token_for
from tournaments.link.services import venue_token_create
from tournaments.models import EventPush, SiteLink, Tournament, VenueEvent

pytestmark = pytest.mark.browser
SIZES = {"1366": (1366, 900), "390": (390, 844)}
WORDS = {
    "en": {
        "up": "Published",
        "down": "No connection since",
        "waiting": "rounds waiting",
        "venue": "Run at a venue",
    },
    "de": {
        "up": "Veröffentlicht",
        "down": "Keine Verbindung seit",
        "waiting": "Runden warten",
        "venue": "Am Spielort geführt",
    },
}


@pytest.fixture
def organiser(transactional_db: None) -> Any:
    user = UserFactory(username="org", is_staff=True)
    ClubFactory(name="Pentagame-Club Köln", slug="koeln").organisers.add(user)
    return user


def venue_event(organiser: Any, state: str) -> str:
    club = organiser.organised_clubs.get()
    # Its players in a club of their own: the factory names every event's players alike.
    tournament = tournament_with_players(
        6, club=ClubFactory(), slug=f"abend-{state}", published=True
    )
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    now = timezone.now()
    link = SiteLink.objects.update_or_create(
        club=club,
        defaults={
            "site_url": "https://pentagame-koeln.example",
            "token": "agv_x",
            "last_ok_at": now - dt.timedelta(minutes=2),
            "failures": 3 if state == "down" else 0,
            "last_error_at": now - dt.timedelta(minutes=14) if state == "down" else None,
            "last_error": "<urlopen error [Errno 101] Network is unreachable>"
            if state == "down"
            else "",
        },
    )[0]
    EventPush.objects.create(
        tournament=tournament,
        link=link,
        acked_at=now - dt.timedelta(minutes=2),
        waiting=state != "up",
        waiting_rounds=3 if state != "up" else 0,
    )
    return tournament.slug


def site_event(organiser: Any) -> str:
    club = organiser.organised_clubs.get()
    tournament = tournament_with_players(
        6, club=ClubFactory(), slug="abend-am-spielort", published=True
    )
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    token, _secret = venue_token_create(club=club, name="Laptop", by=Actor.director(organiser))
    VenueEvent.objects.create(tournament=tournament, token=token, pushed_at=timezone.now())
    return tournament.slug


def open_as(browser: Any, live_server: Any, login: Any, organiser: Any, language: str) -> None:
    from django.conf import settings

    login(organiser)
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


def fits(browser: Any, what: str) -> None:
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert width <= inner, f"{what} is wider than the window"


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", ["1366", "390"])
def test_the_run_page_shows_the_links_state_as_the_server_has_it(
    browser: Any,
    wait: Any,
    live_server: Any,
    login: Any,
    organiser: Any,
    artefacts: Any,
    language: str,
    size: str,
) -> None:
    open_as(browser, live_server, login, organiser, language)
    browser.set_window_size(*SIZES[size])
    words = WORDS[language]
    for state in ("up", "down", "waiting"):
        slug = venue_event(organiser, state)
        browser.get(f"{live_server.url}/t/{slug}/manage/")
        line = wait(
            lambda b: b.find_elements(By.CSS_SELECTOR, "#link-line [data-link-state]") or None
        )[0]
        text, shown = line.text, line.get_attribute("data-link-state")
        assert shown == ("down" if state == "down" else "up"), (state, text)
        assert words["down" if state == "down" else "up"] in text, text
        if state != "up":
            assert words["waiting"] in text and "3" in text, text
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", line)
        browser.save_screenshot(str(artefacts / f"venue-link-{state}-{size}-{language}.png"))
        fits(browser, f"the run page ({state})")
    # On the club's site: an event run at a venue says so, and its link page offers to
    # take it over.
    slug = site_event(organiser)
    browser.get(f"{live_server.url}/t/{slug}/manage/")
    line = wait(lambda b: b.find_elements(By.CSS_SELECTOR, "#link-line .link-line") or None)[0]
    assert words["venue"] in line.text, line.text
    browser.save_screenshot(str(artefacts / f"venue-link-site-{size}-{language}.png"))
    browser.get(f"{live_server.url}/t/{slug}/manage/link/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "form button") or None)
    browser.save_screenshot(str(artefacts / f"venue-link-take-over-{size}-{language}.png"))
    fits(browser, "the event's link page")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_club_makes_a_venue_token_shown_once_on_a_phone(
    browser: Any,
    wait: Any,
    live_server: Any,
    login: Any,
    organiser: Any,
    artefacts: Any,
    language: str,
) -> None:
    open_as(browser, live_server, login, organiser, language)
    browser.set_window_size(*SIZES["390"])
    browser.get(f"{live_server.url}/clubs/koeln/venue-tokens/")
    browser.find_element(By.ID, "id_name").send_keys("Laptop 1")
    browser.find_element(By.CSS_SELECTOR, "form:has(#id_name) button[type=submit]").click()
    token = wait(lambda b: b.find_elements(By.CSS_SELECTOR, "#new-token code") or None)[0]
    secret = token.text
    assert secret.startswith("agv_")
    # The server keeps its digest: the token it showed is the one it now accepts.
    assert venue_token_for(secret) is not None
    browser.save_screenshot(str(artefacts / f"venue-tokens-390-{language}.png"))
    fits(browser, "the tokens page")
