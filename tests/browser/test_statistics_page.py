"""The club's statistics page in Chromium on a phone (issue 26, item 4): at 390 px, in
English and in German, nothing makes the page scroll sideways, and every chart is drawn
with its labels in sight and at a readable size."""

from __future__ import annotations

import datetime as dt

import pytest
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, EntryFactory, TournamentFactory
from tournaments.models import Game, Player, Ply, Round, Seat, Table

pytestmark = pytest.mark.browser


def club_with_games():
    """A club whose games give every chart: 2- and 3-player tables, rated players, move
    records, a game recorded live, colours out, a draw and an unfinished game."""
    club = ClubFactory(slug="statistics-club", name="Statistics Club")
    cup = TournamentFactory(club=club, slug="stat-cup", name="Cup", published=True)
    names = ["Anna Berger", "Bert Okafor", "Cleo Marchetti", "Dora Lindqvist", "Emil Novak"]
    entries = []
    for i, name in enumerate(names):
        player = Player.objects.create(club=club, name=name)
        entries.append(
            EntryFactory(tournament=cup, player=player, seed=i + 1, rating=1800 - 100 * i)
        )
    start = dt.datetime(2026, 11, 18, 19, 0, tzinfo=dt.UTC)
    colours = ["w", "b", "r", "y", "g"]
    for number in range(1, 9):
        round_ = Round.objects.create(tournament=cup, number=number, status="closed")
        triple = Table.objects.create(round=round_, number=1)
        pair = Table.objects.create(round=round_, number=2)
        for position, entry in enumerate(entries[:3], start=1):
            Seat.objects.create(table=triple, round=round_, entry=entry, position=position)
        for position, entry in enumerate(entries[3:], start=1):
            Seat.objects.create(table=pair, round=round_, entry=entry, position=position)
        for g, direction in enumerate(("clockwise", "widdershins"), start=1):
            out = [3, (number + g) % 3, (number * g) % 3]
            Game.objects.create(
                table=triple,
                number=g,
                direction=direction,
                first_position=1 + (number % 3),
                status="finished",
                out_1=out[0],
                out_2=out[1],
                out_3=out[2],
                moves=["x"] * (40 + 7 * number + g),
                colours_out={"1": [colours[number % 5], colours[(number + g) % 5], "g"]},
            )
        pair_out = [(3, 3), (3, 1), (2, 3)][number % 3]
        game = Game.objects.create(
            table=pair,
            number=1,
            first_position=1 + number % 2,
            status="finished" if number != 4 else "unfinished",
            out_1=pair_out[0],
            out_2=pair_out[1] if number != 4 else 1,
            moves=["x"] * (20 + number),
        )
        for n in range(1, 21 + number):
            Ply.objects.create(
                game=game,
                number=n,
                move="x",
                key=f"k{n}",
                at=start + dt.timedelta(days=number, minutes=n * (0.6 + number / 10)),
            )
    return club


def use_language(browser, live_server, language: str) -> None:
    from django.conf import settings

    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


CHARTS = """
const width = window.innerWidth;
return [...document.querySelectorAll('svg.stat-chart')].map((svg) => {
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim());
  return {
    id: svg.getAttribute('aria-labelledby'),
    title: svg.querySelector('title').textContent,
    texts: texts.length,
    outside: texts.filter((t) => {
      const r = t.getBoundingClientRect();
      return r.left < -1 || r.right > width + 1;
    }).map((t) => t.textContent),
    smallest: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize))),
    marks: svg.querySelectorAll('circle, rect, line').length,
  };
});
"""


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_statistics_page_fits_a_phone_with_every_chart_labelled(
    browser, wait, live_server, language
):
    club = club_with_games()
    use_language(browser, live_server, language)
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/clubs/{club.slug}/statistics/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "svg.stat-chart"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
    # The page itself never scrolls sideways (wide tables scroll in their own boxes).
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    charts = browser.execute_script(CHARTS)
    keys = {chart["id"] for chart in charts}
    assert keys == {
        f"chart-{key}-title"
        for key in (
            "first-wins",
            "first-score",
            "seat-order",
            "plies",
            "minutes",
            "letters",
            "outcomes",
        )
    }
    for chart in charts:
        assert chart["title"], chart
        assert chart["texts"] >= 4, chart  # row labels, values and the axis's numbers
        assert chart["outside"] == [], chart
        assert chart["smallest"] >= 11, chart
        assert chart["marks"] >= 3, chart
    # Each chart's numbers are also in a table or a list.
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.stat-table")) == 4
    assert browser.find_elements(By.CSS_SELECTOR, "ol.letter-counts li")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('svg.stat-chart text.stat-label')].map((t) => t.textContent)"
    )
    players = "Spieler" if language == "de" else "players"
    assert any(f"3 {players}" in label for label in labels), labels
    # Drawn within the site's CSP (no inline style): the console has no error.
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
