"""Every kind of page passes axe-core (vendored, tests/browser/vendor/README.md) with the
WCAG 2.0, 2.1 and 2.2 A and AA rules, the 24 px target size included: in English and
German, 1,366 px and 390 px wide. A failure names the rule, the elements and the page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from games.pentagame.playout import random_game
from ratings.models import RatingJob
from ratings.services import rating_job_run
from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Round, Seat
from tournaments.results.services.results import Actor, game_record_moves, game_record_out

pytestmark = pytest.mark.browser
AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
# The WCAG 2.x A and AA rules; "wcag22aa" brings target-size (2.5.8, 24 by 24 px).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
# Long enough that the move list scrolls; the game is still under way after it.
MOVES = random_game(2, seed=3, max_plies=60)
# Names as long as real ones: the tables of a phone's page and a score sheet scroll.
NAMES = [
    "Annegret Vogelsang-Meier",
    "Bartholomew Okonkwo-Smith",
    "Chiara Rossi-Bianchi",
    "Dmitri Ivanovich Petrov",
    "Éléonore Dubois-Lefèvre",
    "Friedrich-Wilhelm Schäfer",
    "Gülşen Yıldırım-Özdemir",
]


@dataclass
class Site:
    """The pages to check; `director` sees the organiser's pages."""

    public: list[str]
    organiser: list[str]
    director: Any


@pytest.fixture
def site(transactional_db: None) -> Site:
    """Seven players with long names: round 1 played and closed (so standings,
    crosstable and ratings have rows), round 2 published with one game under way (moves
    recorded, for the replay and the recording board) and the rest still to enter."""
    by = Actor.command()
    tournament = TournamentFactory(slug="a11y", name="Accessible Open")
    for seed, name in enumerate(NAMES, start=1):
        EntryFactory(tournament=tournament, seed=seed, player__name=name)
    first = round_pair_next(tournament=tournament, by=by)
    round_publish(round=first, by=by)
    for game in Game.objects.filter(table__round=first).order_by("pk"):
        seats = game.table.seats.count()
        game_record_out(game=game, out=[3] + [game.pk % 3] * (seats - 1), by=by)
    round_close(round=first, by=by)
    # The rating job's worker is not running here: run its service in this process.
    for job in RatingJob.objects.filter(status=RatingJob.Status.QUEUED).order_by("pk"):
        rating_job_run(job_id=job.pk)
    second = round_pair_next(tournament=tournament, by=by)
    round_publish(round=second, by=by)
    game = next(
        g
        for g in Game.objects.filter(table__round=second).order_by("pk")
        if g.table.seats.count() == 2
    )
    # A game in progress: the recording board takes the next ply.
    assert game_record_moves(game=game, moves=MOVES, by=by).status == Game.Status.IN_PROGRESS
    seat = Seat.objects.filter(table=game.table).order_by("pk").first()
    player = seat.entry.player_id
    director = UserFactory(username="a11y-director", is_staff=True)
    tournament.directors.add(director)
    slug, number = tournament.slug, second.number
    assert Round.objects.filter(tournament=tournament).count() == 2
    return Site(
        public=[
            "/",
            f"/t/{slug}/",
            f"/t/{slug}/standings/",
            f"/t/{slug}/crosstable/",
            f"/t/{slug}/rounds/{number}/",
            f"/t/{slug}/rounds/{number}/sheets/",
            f"/t/{slug}/projector/",
            f"/t/{slug}/rounds/{number}/wall/",
            f"/t/{slug}/wall/",
            f"/t/{slug}/players/{seat.entry_id}/",
            f"/games/{game.pk}/",
            f"/games/{game.pk}/record/{seat.report_token}/",
            f"/report/{seat.report_token}/",
            "/ratings/",
            # The one player page, another system's games chosen (issue 43, point 6).
            f"/players/{player}/",
            f"/players/{player}/?system=elo",
            "/accounts/login/",
        ],
        organiser=[
            f"/t/{slug}/manage/",
            f"/t/{slug}/manage/rounds/{number}/results/",
            f"/t/{slug}/manage/check-in/",
            f"/t/{slug}/manage/rounds/{number}/open/",
            f"/games/{game.pk}/record/",
        ],
        director=director,
    )


def _axe(browser: Any) -> list[dict[str, Any]]:
    """Inject axe (once per page) and run it on the whole document; its violations."""
    if not browser.execute_script("return typeof window.axe === 'object'"):
        browser.execute_script(AXE.read_text(encoding="utf-8"))
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]},
                           resultTypes: ['violations']})
          .then(r => done(r.violations.map(v => ({
              id: v.id, help: v.help,
              nodes: v.nodes.map(n => n.target.join(' ') + ' — ' + n.failureSummary)}))))
          .catch(e => done([{id: 'axe-error', help: String(e), nodes: []}]));""",
        TAGS,
    )


# What axe only asks a person to review: an ARIA reference to an id the page does not
# hold (a form field's help text left out, say) names or describes nothing.
DANGLING = """return [...document.querySelectorAll(
    '[aria-describedby], [aria-labelledby], [aria-controls], [aria-owns], label[for]')]
  .flatMap(el => ['aria-describedby', 'aria-labelledby', 'aria-controls', 'aria-owns', 'for']
    .flatMap(attr => (el.getAttribute(attr) || '').split(/\\s+/).filter(Boolean)
      .filter(id => !document.getElementById(id))
      .map(id => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} ${attr}="${id}"`)));"""


def _page_problems(browser: Any) -> list[dict[str, Any]]:
    """axe's violations, dangling ARIA references and a missing description."""
    problems = _axe(browser)
    dangling = browser.execute_script(DANGLING)
    if dangling:
        problems.append({"id": "dangling-id", "help": "refers to no element", "nodes": dangling})
    description = browser.execute_script(
        "return document.querySelector('meta[name=description]')?.content.trim() ?? ''"
    )
    if not description:
        problems.append({"id": "meta-description", "help": "no description", "nodes": []})
    return problems


def _report(page: str, violations: list[dict[str, Any]]) -> list[str]:
    return [
        f"{page}: {v['id']} ({v['help']})\n    " + "\n    ".join(v["nodes"][:8]) for v in violations
    ]


def _language(browser: Any, live_server: Any, language: str) -> None:
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


def _load(browser: Any, wait: Any, url: str) -> None:
    browser.get(url)
    wait(lambda b: b.execute_script("return document.readyState") == "complete")


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_page_has_no_axe_violation_at_either_width(
    browser, wait, login, live_server, site, language
):
    browser.set_script_timeout(60)
    found: list[str] = []
    for visitor in ("public", "organiser"):
        if visitor == "organiser":
            login(site.director)
        _language(browser, live_server, language)
        for page in getattr(site, visitor):
            for width, size in WIDTHS.items():
                browser.set_window_size(*size)
                _load(browser, wait, f"{live_server.url}{page}")
                assert browser.execute_script("return document.documentElement.lang") == language
                found += _report(f"{page} ({language}, {width})", _page_problems(browser))
    assert not found, "\n".join(found)


def test_every_page_has_an_icon_and_a_public_page_its_own_description(
    browser, wait, live_server, site
):
    _load(browser, wait, f"{live_server.url}/t/a11y/")
    # Browsers ask for /favicon.ico where a page names no icon (the admin, the API docs).
    status, kind = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch('/favicon.ico').then(r => done([r.status, r.headers.get('content-type')]));"""
    )
    assert status == 200 and kind.startswith("image/svg+xml")
    icon = browser.execute_script("return document.querySelector('link[rel=icon]').href")
    assert browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(r => done(r.ok));",
        icon,
    )
    description = browser.find_element(By.CSS_SELECTOR, "meta[name=description]")
    assert "Accessible Open" in description.get_attribute("content")


def _header(browser: Any) -> dict[str, Any]:
    """The header's height and the controls it shows: links by their address, buttons
    and the list by their kind; and those not wholly inside it and the window."""
    return browser.execute_script(
        """const header = document.querySelector('.site-header');
        const box = header.getBoundingClientRect();
        const shown = [...header.querySelectorAll('a, button, select')]
          .filter(el => el.getClientRects().length > 0);
        const name = el => el.getAttribute('href') || el.closest('form').className;
        return {
          height: box.height,
          controls: shown.map(name),
          outside: shown.filter(el => {
            const r = el.getBoundingClientRect();
            return r.left < 0 || r.right > innerWidth || r.top < box.top || r.bottom > box.bottom;
          }).map(name),
        };"""
    )


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_phone_header_is_two_short_lines_with_every_link_in_it(
    browser, wait, login, live_server, site, language
):
    browser.set_window_size(390, 844)
    _language(browser, live_server, language)
    _load(browser, wait, f"{live_server.url}/t/a11y/")
    header = _header(browser)
    # JavaScript switches on choosing: no Switch button beside the list.
    assert header["controls"] == [
        "/",
        "/ratings/",
        "/api/v1/docs/",
        "/accounts/login/",
        "inline language-switcher",
    ]
    assert header["height"] <= 80 and header["outside"] == [], header
    # The longest header: a staff member's, with the admin and a log-out button.
    login(site.director)
    _language(browser, live_server, language)
    _load(browser, wait, f"{live_server.url}/t/a11y/")
    header = _header(browser)
    assert header["controls"] == [
        "/",
        "/ratings/",
        "/api/v1/docs/",
        "/admin/",
        "inline log-out",
        "inline language-switcher",
    ]
    assert header["height"] <= 80 and header["outside"] == [], header


def test_the_language_switches_on_choosing_and_a_key_step_only_picks(
    browser, wait, live_server, site
):
    browser.set_window_size(390, 844)
    _language(browser, live_server, "en")
    _load(browser, wait, f"{live_server.url}/t/a11y/standings/")
    switch = browser.find_element(By.CSS_SELECTOR, ".language-switcher button")
    assert not switch.is_displayed()
    # Chosen from the list (a click on an option): the page comes back in German, the
    # same page.
    html = browser.find_element(By.TAG_NAME, "html")
    Select(browser.find_element(By.ID, "language-select")).select_by_value("de")
    wait(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de")
    assert browser.current_url.endswith("/t/a11y/standings/")
    assert html.id != browser.find_element(By.TAG_NAME, "html").id
    # An arrow key on the closed list steps to the other language without a page load;
    # the button comes back, and Enter switches.
    html = browser.find_element(By.TAG_NAME, "html")
    browser.execute_script("document.getElementById('language-select').focus()")
    ActionChains(browser).send_keys(Keys.ARROW_UP).perform()
    wait(lambda b: b.find_element(By.CSS_SELECTOR, ".language-switcher button").is_displayed())
    assert browser.find_element(By.ID, "language-select").get_attribute("value") == "en"
    assert html.get_attribute("lang") == "de"  # still the same page
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")


def test_without_javascript_the_switch_button_changes_the_language(
    browser, wait, live_server, site
):
    _language(browser, live_server, "en")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        _load(browser, wait, f"{live_server.url}/t/a11y/")
        Select(browser.find_element(By.ID, "language-select")).select_by_value("de")
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
        browser.find_element(By.CSS_SELECTOR, ".language-switcher button").click()
        wait(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de")
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_after_the_last_game_focus_goes_to_the_progress_line_at_once(
    browser, wait, login, live_server, site
):
    """Enter in the last game while another game still has no result: there is no round
    to close yet, and focus lands on the line that says how many games are in, never on
    the page itself (a screen reader would be left nowhere)."""
    login(site.director)
    _load(browser, wait, f"{live_server.url}/t/a11y/manage/rounds/2/results/")
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    last = browser.find_elements(By.CSS_SELECTOR, "input.pieces-out")[-1]
    seats = int(last.get_attribute("data-seats"))
    browser.execute_script("arguments[0].focus()", last)
    ActionChains(browser).send_keys("3" + " 1" * (seats - 1) + Keys.ENTER).perform()
    on_body = browser.execute_script("return document.activeElement === document.body")
    assert not on_body
    wait(
        lambda b: b.execute_script(
            "return document.activeElement.matches('#round-progress [role=status]')"
            " && !document.querySelector('tr.result-row[data-busy]')"
        ),
        timeout=2,
    )
    assert "1 of" in browser.switch_to.active_element.text


def test_the_wall_projector_pages_on_by_script_and_the_space_bar_holds_it(
    browser, wait, live_server, site
):
    """The wall projector turns its screens by a script (WCAG 2.2.1: a timed refresh
    nobody can stop fails it); the space bar holds and releases it, and says so."""
    _load(browser, wait, f"{live_server.url}/t/a11y/wall/")
    refreshes = browser.execute_script(
        "return document.querySelectorAll('head > meta[http-equiv=refresh]').length"
    )
    assert refreshes == 0  # the timed refresh is only for a browser without script
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-refresh")
    status = browser.find_element(By.ID, "wall-status")
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert status.text == "Paused (space bar continues)"
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert status.text == ""
