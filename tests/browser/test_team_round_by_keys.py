"""A 2 vs 2 round on a phone (390 px wide), by keys: the organiser types every team game
but one on the results screen as its four digits and Enter (`3120`, five keys); the
last game is reported through a player's link with its four fields and confirmed
through an opponent's link. The round then closes, and the team standings page shows
what the pure scoring core makes of the results stored (read here with the ORM, not
through the selector that feeds the page)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser.test_swiss_nine import keys, wait_round_in
from tests.factories import TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Game, Round, Seat, Team, Tournament
from tournaments.standings.selectors.standings import team_scoring_settings, tie_breaks_of
from tournaments.standings.selectors.teams import team_points
from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

pytestmark = pytest.mark.browser
BY = Actor.command()
TEAMS = [
    ("Stars", ["Ann", "Bea"]),
    ("Moons", ["Cid", "Dan"]),
    ("Suns", ["Eve", "Fay"]),
    ("Comets", ["Gus", "Hal"]),
]
# A different result per game, seats 1-4; a finished game has one team (seats 1+3 or
# 2+4) with all 5 of its pieces out.
TYPED = ["3120", "0223", "4110", "1302"]


@pytest.fixture
def round_() -> Round:
    event = TournamentFactory(
        kind=Tournament.Kind.TEAMS, slug="pairs", name="Pairs", rounds_planned=3
    )
    for name, players in TEAMS:
        team_add(tournament=event, name=name, players=players, ratings=[None, None], by=BY)
    round_ = round_pair_next(tournament=event, by=BY)
    round_publish(round=round_, by=BY)
    return round_


def _games(round_: Round) -> list[Game]:
    return list(
        Game.objects.filter(table__round=round_)
        .select_related("table")
        .order_by("table__number", "number")
    )


def _core_team_rows(tournament: Tournament) -> list[tuple[str, float]]:
    """The pure core's team standings from the games stored: (team, score) by rank."""
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament)}
    team_of = {e: t.pk for t in teams.values() for e in (t.first_id, t.second_id)}
    tables = []
    for round_ in Round.objects.filter(tournament=tournament, status=Round.Status.CLOSED):
        for game_table in {g.table for g in Game.objects.filter(table__round=round_)}:
            seats = list(Seat.objects.filter(table=game_table).order_by("position"))
            sides = (str(team_of[seats[0].entry_id]), str(team_of[seats[1].entry_id]))
            games = tuple(
                GameResult((out[0] + out[2], out[1] + out[3]), g.status == Game.Status.FINISHED)
                for g in Game.objects.filter(table=game_table).order_by("number")
                for out in [g.out_list(4)]
            )
            tables.append((round_.number, TableResult(seats=sides, games=games)))
    results = [
        RoundResult(number=n, tables=tuple(t for m, t in tables if m == n), byes=())
        for n in sorted({n for n, _ in tables})
    ]
    units = [
        StandingsPlayer(id=str(t.pk), rating=0.0, seed=t.seed, status="active", first_round=1)
        for t in teams.values()
    ]
    settings = replace(team_scoring_settings(tournament), points=team_points)
    rows = compute_standings(units, results, tie_breaks_of(tournament), settings)
    return [(teams[int(r.player)].name, round(r.score, 1)) for r in rows]


def test_a_team_round_is_entered_by_keys_on_a_phone_and_closes_to_the_cores_standings(
    browser: Any,
    live_server: Any,
    wait: Callable[..., Any],
    new_page: Callable[..., None],
    login: Callable[[Any], None],
    round_: Round,
) -> None:
    browser.set_window_size(390, 844)
    director = UserFactory()
    round_.tournament.directors.add(director)
    login(director)
    games = _games(round_)
    assert len(games) >= 2 and all(
        Seat.objects.filter(table_id=g.table_id).count() == 4 for g in games
    )
    *typed_games, reported = games
    browser.get(f"{live_server.url}/t/pairs/manage/rounds/{round_.number}/results/")
    # The screen starts in the first game without a result: type, Enter, and on.
    wait(lambda b: b.execute_script("return document.activeElement.id") == f"out-{games[0].pk}")
    for index, _game in enumerate(typed_games):
        keys(browser, TYPED[index % len(TYPED)] + Keys.ENTER)  # 5 keys per team game
    wait_round_in(browser, wait, len(games), done=len(typed_games))
    for index, game in enumerate(typed_games):
        game.refresh_from_db()
        assert "".join(map(str, game.out_list(4))) == TYPED[index % len(TYPED)]

    # The last game through the link of its table's seat 1: four fields, Tab between.
    seat_1 = Seat.objects.get(table_id=reported.table_id, position=1)
    seat_2 = Seat.objects.get(table_id=reported.table_id, position=2)
    browser.get(f"{live_server.url}/report/{seat_1.report_token}/")
    first = wait(lambda b: b.find_element(By.ID, f"out-{reported.pk}-1"))
    assert first.get_attribute("value") == ""
    first.send_keys("1" + Keys.TAB)
    keys(browser, "3" + Keys.TAB + "0" + Keys.TAB + "2")
    new_page(lambda: keys(browser, Keys.ENTER))
    assert "awaiting confirmation" in browser.find_element(By.TAG_NAME, "body").text
    # An opponent (seat 2, the other team) confirms with one button, reached by keys.
    browser.get(f"{live_server.url}/report/{seat_2.report_token}/")
    confirm = wait(
        lambda b: b.find_element(
            By.CSS_SELECTOR,
            f"form.confirm-form:has(input[name='game'][value='{reported.pk}']) button",
        )
    )
    assert "seat 1 reported 1 : 3 : 0 : 2" in browser.find_element(By.TAG_NAME, "body").text
    browser.execute_script("arguments[0].focus();", confirm)
    new_page(lambda: keys(browser, Keys.ENTER))
    reported.refresh_from_db()
    assert reported.confirmed and reported.out_list(4) == [1, 3, 0, 2]

    # Every game is in: the round closes from the run page, and the team standings are
    # the core's.
    browser.get(f"{live_server.url}/t/pairs/manage/")
    close = wait(
        lambda b: b.find_element(
            By.CSS_SELECTOR, f"form[action$='/rounds/{round_.number}/close/'] button"
        )
    )
    new_page(close.click)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    browser.get(f"{live_server.url}/t/pairs/teams/")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#team-standings tbody tr')].map(r =>"
        " [r.querySelector('th').innerText.trim(), r.querySelector('strong').innerText.trim()])"
    )
    expected = _core_team_rows(round_.tournament)
    assert [(name, float(score)) for name, score in shown] == expected
