"""The Content-Security-Policy (no inline script or style, nothing from other origins)
does not break a page: Chromium reports no violation on any of them, and the board
still draws and replays."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Team
from tournaments.results.services.results import Actor, game_record_moves, game_record_out

pytestmark = pytest.mark.browser
MOVES = ["RsY", "BsR", "GsY", "RsY"]


@pytest.fixture
def played(transactional_db: None) -> Game:
    tournament = tournament_with_players(2, slug="csp", name="CSP Cup")
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).order_by("number").first()
    return game_record_moves(game=game, moves=MOVES, finished=False, by=Actor.command())


def _violations(browser: Any) -> list[str]:
    return [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]


def test_no_page_breaks_the_content_security_policy(browser, wait, login, live_server, played):
    login(UserFactory(username="csp-admin", is_staff=True, is_superuser=True))
    slug, number = "csp", played.table.round.number
    pages = [
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/rounds/{number}/",
        f"/t/{slug}/rounds/{number}/sheets/",
        f"/t/{slug}/projector/",
        f"/t/{slug}/manage/",
        f"/t/{slug}/manage/rounds/{number}/results/",
        f"/games/{played.pk}/",
        f"/games/{played.pk}/record/",
        "/ratings/",
        "/api/v1/docs/",
        "/admin/",
    ]
    # A 2 vs 2 event's pages: team standings, crosstable, the teams on the organiser's
    # page and the asking page before a withdrawal.
    teams = _team_event(played.table.round.tournament.club)
    team = Team.objects.filter(tournament__slug=teams).order_by("seed").first()
    pages += [
        f"/t/{teams}/teams/",
        f"/t/{teams}/crosstable/",
        f"/t/{teams}/manage/",
        f"/t/{teams}/manage/teams/{team.pk}/withdraw/",
        f"/t/{teams}/manage/teams/{team.pk}/edit/",
    ]
    for page in pages:
        browser.get(f"{live_server.url}{page}")
        wait(lambda b: b.execute_script("return document.readyState") == "complete")
        assert _violations(browser) == [], page
    # The board still draws its stops and replays under the policy.
    browser.get(f"{live_server.url}/games/{played.pk}/?ply={len(MOVES)}")
    wait(lambda b: len(b.find_elements(By.CSS_SELECTOR, ".pg-stop")) == 100)
    assert _violations(browser) == []


def test_the_german_board_draws_its_hundred_stops(browser, wait, live_server, played):
    from django.conf import settings

    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "path": "/"})
    browser.get(f"{live_server.url}/games/{played.pk}/")
    wait(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de")
    drawn = browser.execute_script(
        "return [...document.querySelectorAll('.pg-stop')]"
        ".filter(c => c.getBBox().width > 0).length"
    )
    assert drawn == 100


@pytest.mark.parametrize("language", ["en", "de"])
def test_public_and_player_pages_fit_a_phone_without_sideways_scrolling(
    browser, wait, live_server, played, artefacts, language
):
    """Every public page and every page a player reaches through their own link, at
    390 x 844: the page never scrolls sideways (wide tables scroll inside their box)."""
    from django.conf import settings

    from tournaments.models import Seat

    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    round_ = played.table.round
    tournament = round_.tournament
    seat = Seat.objects.filter(table=played.table).select_related("entry").first()
    token = seat.report_token
    player = seat.entry.player_id
    # Twelve more entrants: the crosstable gets a column each, far wider than a phone,
    # and its visually hidden cell texts must not widen the page.
    from tests.factories import EntryFactory

    top = tournament.entries.count()
    for seed in range(top + 1, top + 13):
        EntryFactory(tournament=tournament, seed=seed)
    pages = [
        "/",
        "/accounts/login/",
        "/t/csp/",
        "/t/csp/standings/",
        "/t/csp/crosstable/",
        "/t/csp/projector/",
        f"/t/csp/rounds/{round_.number}/",
        f"/t/csp/rounds/{round_.number}/?print",
        f"/t/csp/players/{seat.entry_id}/",
        f"/games/{played.pk}/",
        f"/games/{played.pk}/record/{token}/",
        f"/report/{token}/",
        f"/players/{player}/",
        f"/players/{player}/?system=elo",
        "/ratings/",
        f"/ratings/clubs/{tournament.club.slug}/",
        # A 2 vs 2 event: its team standings and its crosstable of teams.
        f"/t/{_team_event(tournament.club)}/teams/",
        "/t/csp-pairs/crosstable/",
    ]
    for page in pages:
        browser.get(f"{live_server.url}{page}")
        wait(lambda b: b.execute_script("return document.readyState") == "complete")
        width, inner = browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]"
        )
        if width > inner:
            browser.save_screenshot(str(artefacts / f"phone-{language}-overflow.png"))
        assert width <= inner, (page, width, inner)
    # The team pages measured were the real ones, not a page of their own refusing.
    browser.get(f"{live_server.url}/t/csp-pairs/teams/")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#team-standings tbody tr")) == 12
    browser.get(f"{live_server.url}/t/csp-pairs/crosstable/")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".crosstable tbody tr")) == 12


def _team_event(club: Any) -> str:
    """A 2 vs 2 event of twelve teams (long names) with a round played; its slug."""
    from tests.factories import TournamentFactory
    from tournaments.desk.services.rounds import round_close
    from tournaments.desk.services.teams import team_add
    from tournaments.models import Tournament

    by = Actor.command()
    event = TournamentFactory(club=club, kind=Tournament.Kind.TEAMS, slug="csp-pairs")
    for i in range(12):
        team_add(
            tournament=event,
            name=f"Hanseatic Pentagame Partners {i + 1}",
            players=[f"Annegret Vogelsang-Meier {i}", f"Bartholomew Okonkwo-Smith {i}"],
            by=by,
        )
    round_ = round_pair_next(tournament=event, by=by)
    round_publish(round=round_, by=by)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1, 2, 1], by=by)
    round_close(round=round_, by=by)
    return event.slug
