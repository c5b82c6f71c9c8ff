"""Wide tables in Chromium (issue 27, items 4 and 10): a crosstable keeps each row's
name, score and rank in sight at 1,366 px however many players it has; on a phone the
public round page shows one card per table with the chances apart from the scores, a
report form keeps each name with its box, and a table wider than the screen says that
it scrolls."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.factories import tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Seat, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.browser
BY = Actor.command()


def play(tournament: Tournament, *, close: bool = True, tables: int | None = None) -> Any:
    """Pairs and publishes the next round and records every game of its first `tables`
    tables (all by default); closes it when asked."""
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    games = Game.objects.filter(table__round=round_).select_related("table")
    for game in games.order_by("table__number", "number"):
        if tables is not None and game.table.number > tables:
            continue
        seats = game.table.seats.count()
        game_record_out(game=game, out=[3] + [1] * (seats - 1), by=BY)
    if close:
        round_close(round=round_, by=BY)
    return round_


def use_language(browser: Any, live_server: Any, language: str) -> None:
    from django.conf import settings

    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


IN_SIGHT = """
const box = document.querySelector('.scroll-box');
const view = box.getBoundingClientRect();
const inside = (cell) => {
  const r = cell.getBoundingClientRect();
  return r.left >= view.left - 1 && r.right <= Math.min(view.right, window.innerWidth) + 1;
};
const rows = [...document.querySelectorAll('table.crosstable tbody tr')];
return rows.map((row) => [
  inside(row.querySelector('th[scope=row]')),
  inside(row.querySelector('.sticky-score')),
  inside(row.querySelector('.sticky-end')),
]);
"""


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_crosstable_of_25_keeps_names_scores_and_ranks_in_sight_while_it_scrolls(
    browser, wait, live_server, language
):
    cup = tournament_with_players(25, slug="wide", name="Wide", rounds_planned=3, published=True)
    play(cup)
    play(cup)
    use_language(browser, live_server, language)
    browser.set_window_size(1366, 900)
    browser.get(f"{live_server.url}/t/wide/crosstable/")
    box = wait(lambda b: b.find_element(By.CSS_SELECTOR, ".scroll-box"))
    overflow = browser.execute_script(
        "return arguments[0].scrollWidth - arguments[0].clientWidth", box
    )
    assert overflow > 0, "25 opponents' columns should be wider than the window"
    # The page itself never scrolls sideways: the crosstable scrolls in its own box.
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    for position in (0, overflow // 2, overflow):
        browser.execute_script("arguments[0].scrollLeft = arguments[1]", box, position)
        shown = browser.execute_script(IN_SIGHT)
        assert len(shown) == 25
        assert all(all(row) for row in shown), (position, shown)
    # The box says that it scrolls.
    hint = browser.find_element(By.CSS_SELECTOR, ".scroll-hint")
    assert hint.is_displayed()
    expected = "scroll sideways" if language == "en" else "seitlich"
    assert expected in hint.text.lower()


def test_a_crosstable_of_13_fits_1366_px_without_scrolling(browser, wait, live_server):
    """The issue's case: with 13 players Score and Rank were cut off at 1,366 px because
    the page kept a reading width; a crosstable now takes the window's width."""
    cup = tournament_with_players(13, slug="thirteen", name="13", rounds_planned=3, published=True)
    play(cup)
    play(cup)
    browser.set_window_size(1366, 900)
    browser.get(f"{live_server.url}/t/thirteen/crosstable/")
    box = wait(lambda b: b.find_element(By.CSS_SELECTOR, ".scroll-box"))
    assert browser.execute_script(
        "return arguments[0].scrollWidth <= arguments[0].clientWidth", box
    )
    assert all(all(row) for row in browser.execute_script(IN_SIGHT))
    assert not browser.find_elements(By.CSS_SELECTOR, ".scroll-hint")


CARDS = """
return [...document.querySelectorAll('table.pairings tbody tr')].map((row) => {
  const cells = [...row.children];
  return {
    display: getComputedStyle(row).display,
    width: row.getBoundingClientRect().width,
    // a name on one line: its link is one box, not broken over lines
    names: [...row.querySelectorAll('td a[href*="/players/"]')].map((a) => a.getClientRects().length),
    score: cells[3].innerText,
    chances: row.querySelector('td.chances') ? row.querySelector('td.chances').innerText : null,
    chancesShown: row.querySelector('td.chances') ? getComputedStyle(row.querySelector('td.chances')).display !== 'none' : false,
    // the card's title: the heading drawn before the number (CSS content, not text)
    heading: getComputedStyle(cells[0], '::before').content + ' ' + cells[0].innerText,
  };
});
"""


@pytest.mark.parametrize("language", ["en", "de"])
def test_on_a_phone_the_round_page_shows_a_card_per_table_and_chances_apart_from_scores(
    browser, wait, live_server, language
):
    cup = tournament_with_players(9, slug="cards", name="Cards", rounds_planned=3, published=True)
    round_ = play(cup, close=False, tables=1)  # table 1 played, the others not yet
    use_language(browser, live_server, language)
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/t/cards/rounds/{round_.number}/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "table.pairings tbody tr"))
    cards = browser.execute_script(CARDS)
    assert len(cards) == round_.tables.count()
    table = "Table" if language == "en" else "Tisch"
    for number, card in enumerate(cards, start=1):
        assert card["display"] == "grid"
        assert card["width"] <= 390
        assert card["heading"].startswith(f'"{table} " {number}'), card["heading"]
        assert card["names"] and all(lines == 1 for lines in card["names"]), card
        assert "%" not in card["score"], "a chance shown as a round score"
    played, waiting = cards[0], cards[1:]
    assert not played["chancesShown"]
    assert all(card["chancesShown"] and "%" in card["chances"] for card in waiting)
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    # At 1,366 px the chances have a column and a heading of their own.
    browser.set_window_size(1366, 900)
    headings = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.pairings thead th")]
    assert len(headings) == 5
    assert ("Chance to finish first" if language == "en" else "Chance") in headings[4]
    scores = browser.find_elements(By.CSS_SELECTOR, "table.pairings tbody tr td:nth-of-type(3)")
    assert scores and all("%" not in cell.text for cell in scores)


def test_on_a_phone_each_name_on_a_report_form_stays_with_its_box(browser, wait, live_server):
    cup = tournament_with_players(3, slug="report", name="Report", rounds_planned=2, published=True)
    round_ = round_pair_next(tournament=cup, by=BY)
    round_publish(round=round_, by=BY)
    seat = Seat.objects.filter(table__round=round_).order_by("table__number", "position")[0]
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/report/{seat.report_token}/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "input[name^=out_]"))
    pairs = browser.execute_script(
        """return [...document.querySelectorAll('input[name^=out_]')].map((box) => {
             const label = document.querySelector(`label[for="${box.id}"]`);
             const a = label.getBoundingClientRect(), b = box.getBoundingClientRect();
             return [label.innerText, Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2)];
           });"""
    )
    assert pairs
    # Each box sits on its name's line (their middles within a few pixels).
    assert all(gap < 12 for _, gap in pairs), pairs


@pytest.mark.parametrize("language", ["en", "de"])
def test_on_a_phone_the_standings_say_that_they_scroll_sideways(
    browser, wait, live_server, language
):
    cup = tournament_with_players(8, slug="hint", name="Hint", rounds_planned=3, published=True)
    play(cup)
    use_language(browser, live_server, language)
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/t/hint/standings/")
    hint = wait(lambda b: b.find_element(By.CSS_SELECTOR, ".scroll-hint"))
    assert hint.is_displayed()
    assert hint.text.lower().startswith("scroll sideways" if language == "en" else "seitlich")
    # The hint sits right above the box that scrolls, and that box is wider inside.
    box = browser.execute_script("return arguments[0].nextElementSibling", hint)
    assert browser.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", box)
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    # At 1,366 px the same standings fit: no hint.
    browser.set_window_size(1366, 900)
    wait(lambda b: not b.find_elements(By.CSS_SELECTOR, ".scroll-hint"))
