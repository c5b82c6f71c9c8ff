"""Issue 42's season and statistics seams in Chromium: a statistics dot at 0 % or 100 %
lies wholly inside its chart (it was cut in half at the chart's edge), and the season
page at 390 px shows points for taking part only for an event played, without making
the page scroll sideways."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, EntryFactory, TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_add
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.seasons import season_create
from tournaments.desk.services.tournaments import tournament_create
from tournaments.models import Game, Player, Round, Seat, Table
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots/p3")
WIDTHS = [1366, 390]

# Each dot's box against its chart's box (pixels beyond it, on either side).
DOTS = """
return [...document.querySelectorAll('svg.stat-chart circle.stat-dot')].map((dot) => {
  const chart = dot.ownerSVGElement.getBoundingClientRect();
  const r = dot.getBoundingClientRect();
  return {cx: dot.getAttribute('cx'), left: chart.left - r.left, right: r.right - chart.right};
});
"""


def first_mover_always_and_never_wins():
    """A club whose first movers win every 2-player game (100 %) and no 3-player game
    (0 %)."""
    club = ClubFactory(slug="edges", name="Edges")
    cup = TournamentFactory(club=club, slug="edges-cup", name="Cup", published=True)
    entries = [
        EntryFactory(tournament=cup, player=Player.objects.create(club=club, name=n), seed=i)
        for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora", "Emil"], start=1)
    ]
    for number in range(1, 7):
        round_ = Round.objects.create(tournament=cup, number=number, status="closed")
        pair = Table.objects.create(round=round_, number=1)
        triple = Table.objects.create(round=round_, number=2)
        for position, entry in enumerate(entries[:2], start=1):
            Seat.objects.create(table=pair, round=round_, entry=entry, position=position)
        for position, entry in enumerate(entries[2:], start=1):
            Seat.objects.create(table=triple, round=round_, entry=entry, position=position)
        Game.objects.create(
            table=pair, number=1, first_position=1, status="finished", out_1=3, out_2=1
        )
        Game.objects.create(
            table=triple,
            number=1,
            first_position=1,
            status="finished",
            out_1=1,
            out_2=3,
            out_3=2,
        )
    return club


@pytest.mark.parametrize("width", WIDTHS)
def test_a_dot_at_0_or_100_percent_lies_wholly_inside_its_chart(browser, wait, live_server, width):
    club = first_mover_always_and_never_wins()
    browser.set_window_size(width, 900)
    browser.get(f"{live_server.url}/clubs/{club.slug}/statistics/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "svg.stat-chart circle.stat-dot"))
    dots = browser.execute_script(DOTS)
    edges = [d for d in dots if d["cx"] in ("0.00%", "100.00%")]
    assert {d["cx"] for d in edges} == {"0.00%", "100.00%"}, dots
    for dot in dots:
        assert dot["left"] <= 0.01 and dot["right"] <= 0.01, dot
    assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"statistics-{width}.png"))


def test_the_season_page_at_390_px_gives_points_only_for_an_event_played(
    browser, wait, live_server
):
    staff = Actor.director(UserFactory(username="season-org", is_staff=True))
    by = Actor.command()
    start = dt.date(2026, 5, 1)
    season = season_create(
        club=ClubFactory(slug="season-club", name="Season Club"),
        name="Spring",
        starts_on=start,
        ends_on=start + dt.timedelta(days=60),
        participation_points=2,
        by=staff,
    )
    for week, close in ((1, True), (2, False)):
        event = tournament_create(
            club=season.club,
            name=f"Evening {week}",
            by=staff,
            date=start + dt.timedelta(days=7 * week),
            published=True,
            season=season,
        )
        for name in ("Anna Berger", "Bert Okafor", "Cleo Marchetti", "Dora Lindqvist"):
            entry_add(tournament=event, name=name, by=by)
        round_ = round_pair_next(tournament=event, by=by)
        round_publish(round=round_, by=by)
        if close:
            for game in Game.objects.filter(table__round=round_):
                game_record_out(game=game, out=[3, 1], by=by)
            round_close(round=round_, by=by)
    for width in WIDTHS:
        browser.set_window_size(width, 844)
        browser.get(f"{live_server.url}/clubs/season-club/seasons/spring/")
        table = wait(lambda b: b.find_elements(By.CSS_SELECTOR, "table.season-table tbody tr"))
        assert len(table) == 4
        for row in table:
            cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "td")]
            # rank, total, events, for taking part, evening 1, evening 2 (not played yet)
            assert cells[2:4] == ["1", "2"], cells
            assert not any(c.isdigit() for c in cells[-1]), cells  # blank, not 0
        assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / f"season-{width}.png"))
