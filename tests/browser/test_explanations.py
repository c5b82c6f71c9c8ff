"""The explanations in Chromium (issue 46, part 2): the public round page with a table's
"why?" opened without script, and the standings page with a tie-break note, in English
and German at 1,366 and 390 px. Screenshots go to var/artefacts/."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By

from tests.factories import EntryFactory, TournamentFactory
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.browser
COMMAND = Actor.command()
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Finn", "Greta"]
WORDS = {
    "en": {"why": "why?", "groups": "Score groups:", "level": "level on points with"},
    "de": {"why": "warum?", "groups": "Punktgruppen:", "level": "punktgleich mit"},
}


@pytest.fixture
def event(transactional_db: None) -> str:
    """Seven players: round 1 played and closed (seat 1 wins 3:1, 3:1:2 at three seats),
    round 2 paired by the book's rule and published, with its 3-player table."""
    tournament = TournamentFactory(name="Spring Open", slug="spring-open", rounds_planned=3)
    for i, name in enumerate(NAMES, start=1):
        # Ratings apart: players level on points and on the opponents' scores are
        # separated by the rating, a tie-break of the default order.
        EntryFactory(tournament=tournament, seed=i, rating=1600 - 20 * i, player__name=name)
    first = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=first, by=COMMAND)
    for game in Game.objects.filter(table__round=first).select_related("table"):
        game_record_out(by=COMMAND, game=game, out=[3, 1, 2][: game.table.seats.count()])
    round_close(round=first, by=COMMAND)
    second = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=second, by=COMMAND)
    return tournament.slug


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_tables_why_opens_and_the_standings_show_a_tie_break_note(
    browser: Any,
    wait: Any,
    live_server: Any,
    event: str,
    artefacts: Any,
    language: str,
    width: int,
) -> None:
    from django.conf import settings

    words = WORDS[language]
    browser.set_window_size(width, 900)
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    browser.get(live_server.url + reverse("round-detail", args=[event, 2]))
    wait(lambda b: b.execute_script("return document.readyState") == "complete")
    details = browser.find_elements(By.CSS_SELECTOR, "table.pairings details.why")
    assert len(details) == 3  # two 2-player tables and the 3-player table
    # The 3-player table's (the last): closed, then opened by its summary, a plain click.
    last = details[-1]
    text = last.find_element(By.CSS_SELECTOR, "ul")
    assert not text.is_displayed()
    summary = last.find_element(By.TAG_NAME, "summary")
    assert summary.text.startswith(words["why"])
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", last)
    summary.click()
    wait(lambda b: text.is_displayed())
    assert words["groups"] in text.text
    assert last.get_attribute("open") is not None
    wide, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert wide <= inner, "the round page with a why? opened is wider than the window"
    browser.save_screenshot(str(artefacts / f"explanations-round-{width}-{language}.png"))

    browser.get(live_server.url + reverse("tournament-standings", args=[event]))
    wait(lambda b: b.execute_script("return document.readyState") == "complete")
    notes = browser.find_elements(By.CSS_SELECTOR, "table.standings .tiebreak-note")
    level = [n for n in notes if words["level"] in n.text]
    assert level, "rows level on points carry a tie-break note"
    note = level[0]
    assert note.is_displayed()
    assert note.get_attribute("title")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", note)
    browser.save_screenshot(str(artefacts / f"explanations-standings-{width}-{language}.png"))
