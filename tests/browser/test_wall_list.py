"""The wall list in Chromium: readable at 390 px (one column, large type, nothing cut
off), two columns on one A4 page when printed, and on the projector the whole field on
one screen without scrolling. Screenshots and the PDF go to var/artefacts/."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.factories import EntryFactory, TournamentFactory
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser
FIRST = ["Annegret", "Bartholomew", "Chiara", "Dmitri", "Éléonore", "Friedrich", "Gülşen"]
LAST = ["Vogelsang-Meier", "Okonkwo", "Rossi", "Ivanov", "Dubois", "Schäfer"]


@pytest.fixture
def field(transactional_db: None) -> str:
    """Forty players with long names, round 1 published."""
    tournament = TournamentFactory(slug="wall", name="Hanseatic Pentagame Open")
    for i in range(40):
        name = f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST)]}"
        EntryFactory(tournament=tournament, seed=i + 1, player__name=name)
    round_publish(
        round=round_pair_next(tournament=tournament, by=Actor.command()), by=Actor.command()
    )
    return tournament.slug


def _open(browser: Any, wait: Any, url: str, language: str = "en") -> None:
    from django.conf import settings

    browser.get(url.split("/t/")[0] + "/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    browser.get(url)
    wait(lambda b: b.execute_script("return document.readyState") == "complete")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_wall_list_reads_on_a_phone(browser, wait, live_server, field, artefacts, language):
    browser.set_window_size(390, 844)
    _open(browser, wait, f"{live_server.url}/t/{field}/rounds/1/wall/", language)
    browser.save_screenshot(str(artefacts / f"wall-390-{language}.png"))
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert width <= inner  # no sideways scrolling
    rows = browser.find_elements(By.CSS_SELECTOR, ".wall-list li")
    assert len(rows) == 40
    facts = browser.execute_script(
        """const li = [...document.querySelectorAll('.wall-list li')];
        return {
          columns: getComputedStyle(document.querySelector('.wall-list')).columnCount,
          size: parseFloat(getComputedStyle(li[0].querySelector('.wall-name')).fontSize),
          cut: li.filter(r => r.getBoundingClientRect().right > innerWidth
                 || r.querySelector('.wall-where').getBoundingClientRect().right > innerWidth)
                 .length,
        };"""
    )
    assert facts["columns"] == "auto"  # one column on a phone
    assert facts["size"] >= 18  # large type
    assert facts["cut"] == 0  # every name and its table and seat in view


def test_the_wall_list_prints_in_two_columns_on_one_page(
    browser, wait, live_server, field, artefacts
):
    browser.set_window_size(1366, 900)
    _open(browser, wait, f"{live_server.url}/t/{field}/rounds/1/wall/")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        browser.set_window_size(794, 1123)  # A4 at 96 dpi, to look at
        browser.save_screenshot(str(artefacts / "wall-print.png"))
        facts = browser.execute_script(
            """const list = document.querySelector('.wall-list');
            return {
              columns: getComputedStyle(list).columnCount,
              size: parseFloat(getComputedStyle(list).fontSize),
              header: getComputedStyle(document.querySelector('.site-header')).display,
              tools: getComputedStyle(document.querySelector('.wall-tools')).display,
            };"""
        )
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert facts == {
        "columns": "2",
        "size": pytest.approx(17.33, abs=0.1),  # 13 pt
        "header": "none",
        "tools": "none",
    }
    pdf = base64.b64decode(
        browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]
    )
    (artefacts / "wall-a4.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1  # one A4 page


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080), (1024, 768)])
def test_the_projector_shows_the_whole_field_on_one_screen(
    browser, wait, live_server, field, artefacts, width, height
):
    browser.set_window_size(width, height)
    _open(browser, wait, f"{live_server.url}/t/{field}/wall/")
    inner_height = browser.execute_script("return window.innerHeight")
    browser.save_screenshot(str(artefacts / f"wall-projector-{width}x{height}.png"))
    facts = browser.execute_script(
        """const li = [...document.querySelectorAll('.wall-list li')];
        return {
          rows: li.length,
          bottom: Math.max(...li.map(r => r.getBoundingClientRect().bottom)),
          right: Math.max(...li.map(r => r.getBoundingClientRect().right)),
          size: parseFloat(getComputedStyle(li[0]).fontSize),
          wide: document.documentElement.scrollWidth,
        };"""
    )
    assert facts["rows"] == 40
    assert facts["bottom"] <= inner_height, facts  # nothing below the screen's edge
    assert facts["right"] <= width and facts["wide"] <= width, facts
    # Readable from the back of the hall: a projection's letters grow with its width,
    # and at a ninetieth of it they are about 3.5 cm high on a 3 m screen.
    assert facts["size"] >= width / 90, facts
