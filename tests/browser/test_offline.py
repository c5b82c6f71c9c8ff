"""The venue without signal (issue 25) in Chromium: a player records plies and reports a
result offline, the organiser types results offline, and when the signal returns every
entry is on the server once.

How the signal is cut, and why two ways at once:
- the page: the DevTools protocol's network conditions (`Network.emulateNetworkConditions`
  with offline=True), so the page's own requests fail and `navigator.onLine` is false,
  as on a phone without signal;
- the service worker: its fetches are its own target's, which Selenium's CDP session
  (the page's) does not reach, so the conditions above do not apply to them. The live
  server is made to drop every connection without an answer instead (`no_signal`), which
  is what a request sent into a dead network gets: no response at all. On the production
  site (tests/browser/production) its front, nginx, drops them instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.pictures.pentagame import position_payload
from tests.browser.test_board import tap_move
from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Ply, ResultSubmission, Round
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.browser

COMMAND = Actor.command()


class Signal:
    def __init__(
        self, browser: Any, drop: Callable[[bool], None], last: Callable[[], float]
    ) -> None:
        self.browser = browser
        self.drop = drop  # drop(True): the server drops every request unanswered
        self.last = last  # when the server last got a request (time.monotonic)

    def _conditions(self, offline: bool) -> None:
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.browser.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )

    def cut(self) -> None:
        self.drop(True)
        self._conditions(True)

    def restore(self) -> None:
        self.drop(False)
        self._conditions(False)

    def settle(self, quiet: float = 1.0, timeout: float = 15.0) -> None:
        """Wait until the server has had no request for `quiet` seconds: a retry a page
        sent just before it closed reaches the server a moment later, and must find the
        signal still cut, not restored (where it would be stored, and the test would
        race it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last() < quiet:
            assert time.monotonic() < deadline, "the server kept getting requests"
            time.sleep(0.05)


@pytest.fixture
def no_signal(browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Signal]:
    """signal.cut() / signal.restore(): see the module's docstring."""
    from django.core.servers import basehttp

    if hasattr(live_server, "drop_requests"):  # the production site's front
        signal = Signal(browser, live_server.drop_requests, live_server.last_request)
        yield signal
        signal.restore()
        return

    state: dict[str, Any] = {"off": False, "last": 0.0}
    parse = basehttp.WSGIRequestHandler.parse_request

    # Decided when a request has come in, not when the server starts waiting for one: a
    # kept-alive connection's handler was already waiting before the signal was cut,
    # and would answer the next request on it.
    def parse_request(handler: Any) -> bool:
        state["last"] = time.monotonic()
        if state["off"]:
            handler.close_connection = True  # closed unanswered: a network error
            return False
        return bool(parse(handler))

    monkeypatch.setattr(basehttp.WSGIRequestHandler, "parse_request", parse_request)
    signal = Signal(browser, lambda off: state.update(off=off), lambda: state["last"])
    yield signal
    signal.restore()


def kept_by_the_worker(browser: Any, wait: Any, url: str) -> None:
    """Wait until the service worker controls the page and keeps `url` for offline use."""
    script = """
      const [url, done] = arguments;
      caches.open("agon-pages-v1")
        .then((cache) => cache.match(url, {ignoreVary: true}))
        .then((found) => done(Boolean(found) && Boolean(navigator.serviceWorker.controller)))
        .catch(() => done(false));
    """
    wait(lambda b: b.execute_async_script(script, url), 20)


def status_line(browser: Any) -> str:
    """The offline status line as shown ("" while hidden or while the page is changing).

    Read in one script, not element by element: the page reloads itself once nothing
    waits, and an element found just before that belongs to no document a moment later
    (Chromium then answers "Node … does not belong to the document", not a stale
    element). A script run while the page is being replaced fails the same way: "not
    shown yet", for `wait` to ask again."""
    script = """
      const box = document.getElementById("offline-status");
      const line = box && box.querySelector("[data-line]");
      if (!line || !box.checkVisibility()) return "";
      return line.innerText.replace(/\\s+/g, " ").trim();
    """
    try:
        return str(browser.execute_script(script))
    except WebDriverException:
        return ""


def simple_game(plies: int, seed: int = 25) -> list[str]:
    """A legal two-player game of `plies` plies without blocks to place (each a piece and
    its target on the board), chosen by the Python engine."""
    rng = random.Random(seed)
    moves: list[str] = []
    for _ in range(plies):
        legal = position_payload({"players": 2, "variant": "standard", "moves": moves})["legal"]
        simple = [
            m
            for m in legal
            if m["kind"] not in ("pass", "z") and not m.get("black") and not m.get("out")
        ]
        moves.append(rng.choice(simple)["text"])
    return moves


def report_on_the_link(browser: Any, game: Game) -> None:
    """Report 3:1 for `game` on a player's link (the page already open): 3 pieces out
    for seat 1, 1 for seat 2."""
    form = browser.find_element(By.ID, f"game-{game.pk}")
    form.find_element(By.ID, f"out-{game.pk}-1").send_keys("3")
    form.find_element(By.ID, f"out-{game.pk}-2").send_keys("1")
    form.find_element(By.TAG_NAME, "button").click()


@pytest.fixture
def two_player_round(transactional_db: None) -> Round:
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    return round_


def test_plies_and_a_report_made_offline_reach_the_server_once_when_the_signal_returns(
    browser, wait, live_server, no_signal, two_player_round
):
    games = list(Game.objects.filter(table__round=two_player_round).order_by("number"))
    assert len(games) >= 2
    board_game, reported_game = games[0], games[1]
    seat = board_game.table.seats.get(position=1)
    token = seat.report_token
    report_url = f"{live_server.url}/report/{token}/"
    board_url = f"{live_server.url}/games/{board_game.pk}/record/{token}/"
    plies = simple_game(20)

    # With signal: the player opens her link and the board; the worker keeps both.
    browser.get(report_url)
    kept_by_the_worker(browser, wait, report_url)
    browser.get(board_url)
    wait(lambda b: "to move" in b.find_element(By.ID, "pg-status").text)
    kept_by_the_worker(browser, wait, board_url)

    no_signal.cut()
    for text in plies:
        tap_move(browser, wait, text)
    wait(lambda b: status_line(b) == "Offline — 20 plies waiting to be sent")

    # The report page from the worker's copy; the report waits in the queue.
    browser.get(report_url)
    report_on_the_link(browser, reported_game)
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")
    assert "waiting to be sent" in browser.find_element(By.ID, f"game-{reported_game.pk}").text

    # Reloaded without signal: both pages still there, saying what waits.
    browser.refresh()
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")
    assert "waiting to be sent" in browser.find_element(By.ID, f"game-{reported_game.pk}").text
    browser.get(board_url)
    wait(lambda b: status_line(b) == "Offline — 20 plies waiting to be sent")
    wait(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#pg-moves li")) == 20)
    assert Ply.objects.filter(game=board_game).count() == 0
    assert not ResultSubmission.objects.filter(game=reported_game).exists()

    no_signal.restore()
    wait(lambda b: Ply.objects.filter(game=board_game).count() == 20, 30)
    wait(lambda b: ResultSubmission.objects.filter(game=reported_game).exists(), 30)
    wait(lambda b: not b.find_element(By.ID, "offline-status").is_displayed(), 30)
    board_game.refresh_from_db()
    assert list(board_game.moves) == plies
    assert sorted(Ply.objects.filter(game=board_game).values_list("number", flat=True)) == list(
        range(1, 21)
    )
    submissions = ResultSubmission.objects.filter(game=reported_game)
    assert submissions.count() == 1
    assert submissions.get().by_seat == seat
    # The page follows the server again: a reload shows the stored record, nothing waits.
    browser.refresh()
    wait(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#pg-moves li")) == 20)
    assert status_line(browser) == ""


@pytest.fixture
def results_round(transactional_db: None) -> Round:
    """Round 1 of twelve players on six 2-player tables, published, every game entered
    but five."""
    tournament = tournament_with_players(12)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    games = list(
        Game.objects.filter(table__round=round_, decider=False).order_by("table__number", "number")
    )
    for game in games[5:]:
        game_record_out(game=game, out=[3, 1], by=COMMAND)
    return round_


def results_url(live_server: Any, round_: Round) -> str:
    return f"{live_server.url}/t/{round_.tournament.slug}/manage/rounds/{round_.number}/results/"


def type_result(browser: Any, game: Game, text: str) -> None:
    field = browser.find_element(By.ID, f"out-{game.pk}")
    field.click()
    field.clear()
    field.send_keys(text, Keys.TAB)


def progress(browser: Any) -> str:
    return browser.find_element(By.CSS_SELECTOR, "#round-progress [role=status]").text


def test_results_typed_offline_wait_apart_hold_the_way_on_and_are_all_saved_later(
    browser, wait, login, live_server, no_signal, results_round, artefacts
):
    director = UserFactory()
    results_round.tournament.directors.add(director)
    login(director)
    url = results_url(live_server, results_round)
    games = list(
        Game.objects.filter(table__round=results_round, decider=False).order_by(
            "table__number", "number"
        )
    )
    total = len(games)
    sheets_url = url.replace("manage/rounds", "rounds").replace("/results/", "/sheets/")
    browser.get(url)
    kept_by_the_worker(browser, wait, url)
    kept_by_the_worker(browser, wait, sheets_url)
    assert progress(browser) == f"{total - 5} of {total} games in"

    no_signal.cut()
    for game in games[:5]:
        type_result(browser, game, "3 1")
    wait(lambda b: status_line(b) == "Offline — 5 results waiting to be sent")
    assert len(browser.find_elements(By.CSS_SELECTOR, "tr.result-row.is-waiting")) == 5
    assert "waiting" in browser.find_element(By.ID, f"game-{games[0].pk}").text
    wait(lambda b: progress(b) == f"{total - 5} of {total} games in, 5 waiting")
    browser.save_screenshot(str(artefacts / "offline-results-waiting.png"))
    # Reloaded without signal: the worker's copy, the typed results still waiting.
    browser.refresh()
    wait(lambda b: progress(b) == f"{total - 5} of {total} games in, 5 waiting")
    assert browser.find_element(By.ID, f"out-{games[0].pk}").get_attribute("value") == "3 1"
    assert (
        Game.objects.filter(
            pk__in=[g.pk for g in games[:5]], status__in=Game.WITHOUT_RESULT
        ).count()
        == 5
    )
    # The score sheets (a QR code per player), kept when the screen was opened, print
    # from the worker's copy.
    browser.get(sheets_url)
    assert browser.find_elements(By.CSS_SELECTOR, "svg.qr")
    # agon/print.css, or its hashed name (agon/print.0123456789ab.css) in production.
    assert browser.find_element(By.CSS_SELECTOR, "link[href*='agon/print.'][href$='.css']")
    assert browser.execute_script(
        "return [...document.styleSheets].some((s) => /agon\\/print\\.([0-9a-f]{12}\\.)?css$/"
        ".test(s.href ?? '') && s.cssRules.length > 0)"
    )
    browser.get(url)
    wait(lambda b: progress(b) == f"{total - 5} of {total} games in, 5 waiting")

    no_signal.restore()
    wait(lambda b: progress(b) == f"{total} of {total} games in", 30)
    for game in games[:5]:
        game.refresh_from_db()
        assert game.confirmed and game.out_list(2) == [3, 1]
        assert ResultSubmission.objects.filter(game=game).count() == 1
    # Nothing waits: the screen reloads to show what is stored (agon/offline.js), so the
    # rows and the way on are read in one script call, from whichever page is there.
    wait(
        lambda b: b.execute_script(
            "return !document.querySelector('tr.result-row.is-waiting') && document"
            ".querySelector('#round-progress .way-on button')?.disabled === false"
        ),
        15,
    )

    # A closed round: a correction typed offline holds back pairing the next round.
    round_close(round=results_round, by=COMMAND)
    browser.get(url + "?correct=1")  # a closed round is corrected deliberately
    pair = browser.find_element(By.CSS_SELECTOR, "#round-progress .way-on button")
    assert pair.is_enabled()
    no_signal.cut()
    type_result(browser, games[0], "3 2")
    wait(
        lambda b: not b.find_element(By.CSS_SELECTOR, "#round-progress .way-on button").is_enabled()
    )
    reason = browser.find_element(By.ID, "waits-reason").text
    assert reason == "Wait until the results typed without signal are sent."
    assert progress(browser) == f"{total} of {total} games in, 1 waiting"
    no_signal.restore()
    wait(
        lambda b: b.find_element(By.CSS_SELECTOR, "#round-progress .way-on button").is_enabled(), 30
    )
    games[0].refresh_from_db()
    assert games[0].out_list(2) == [3, 2]


def test_a_result_typed_offline_that_meets_another_becomes_a_dispute_shown_in_its_row(
    browser, wait, login, live_server, no_signal, results_round, artefacts
):
    """Needs the server side of issue 25 (queued conflicts become disputes)."""
    director = UserFactory()
    results_round.tournament.directors.add(director)
    login(director)
    url = results_url(live_server, results_round)
    game = (
        Game.objects.filter(table__round=results_round, decider=False)
        .order_by("table__number", "number")
        .first()
    )
    browser.get(url)
    kept_by_the_worker(browser, wait, url)
    no_signal.cut()
    type_result(browser, game, "3 1")
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")
    # Meanwhile another device enters a different result for the same game.
    game_record_out(game=game, out=[1, 3], by=COMMAND)
    no_signal.restore()
    outcome = (By.CSS_SELECTOR, "#offline-status [data-outcome]")
    wait(lambda b: b.find_elements(*outcome), 30)
    shown = browser.find_element(*outcome)
    assert shown.get_attribute("data-outcome") == "dispute"
    # The row is fetched as it now is, and the server's word put in it.
    wait(lambda b: b.find_element(By.ID, f"error-{game.pk}").text)
    assert browser.find_element(By.ID, f"error-{game.pk}").text in shown.text
    assert "is-waiting" not in browser.find_element(By.ID, f"game-{game.pk}").get_attribute("class")
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3]  # never silently overwritten
    browser.save_screenshot(str(artefacts / "offline-results-dispute.png"))


def session_of(browser: Any, user: Any) -> None:
    """Sign `user` in on this device without a request (the signal may be cut): her
    session cookie replaces every cookie, the CSRF token's too."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    browser.delete_all_cookies()
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )


def test_on_a_shared_device_a_players_entry_goes_with_the_new_session_and_an_organisers_waits_for_her(
    browser, wait, login, live_server, no_signal, two_player_round
):
    first, second = Game.objects.filter(table__round=two_player_round).order_by("number")[:2]
    seat = second.table.seats.get(position=1)
    report_url = f"{live_server.url}/report/{seat.report_token}/"
    organiser, other = UserFactory(), UserFactory()
    two_player_round.tournament.directors.add(organiser, other)
    url = results_url(live_server, two_player_round)
    login(organiser)
    browser.get(url)
    kept_by_the_worker(browser, wait, url)
    browser.get(report_url)
    kept_by_the_worker(browser, wait, report_url)

    # Without signal: the organiser types game 1 on her screen, a player reports game 2
    # by her link on the same device.
    no_signal.cut()
    browser.get(url)
    type_result(browser, first, "3 1")
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")
    browser.get(report_url)
    report_on_the_link(browser, second)
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")

    # Another organiser signs in on the device before the signal returns: the old
    # session and its CSRF token are gone.
    session_of(browser, other)
    no_signal.restore()
    browser.get(url)
    # The player's report goes with the new page's token; the first organiser's entry
    # is not sent in another's name: it waits, and says so.
    wait(lambda b: ResultSubmission.objects.filter(game=second, by_seat=seat).exists(), 30)
    wait(lambda b: status_line(b) == "1 result waiting to be sent", 15)
    first.refresh_from_db()
    assert first.status == Game.Status.PENDING
    assert not ResultSubmission.objects.filter(game=first).exists()

    # She signs in again: her entry goes, as hers.
    session_of(browser, organiser)
    browser.get(url)
    wait(lambda b: ResultSubmission.objects.filter(game=first).exists(), 30)
    entered = ResultSubmission.objects.get(game=first)
    assert (entered.state, entered.by_user) == (ResultSubmission.State.ENTERED, organiser)
    first.refresh_from_db()
    assert first.out_list(2) == [3, 1]
    wait(lambda b: status_line(b) == "", 15)


OFFLINE_WORDS = {
    "en": {
        "plies": "Offline — 2 plies waiting to be sent",
        "report": "Offline — 1 result waiting to be sent",
        "row": "waiting to be sent",
    },
    "de": {
        "plies": "Offline — 2 Halbzüge warten auf das Senden",
        "report": "Offline — 1 Ergebnis wartet auf das Senden",
        "row": "wartet auf das Senden",
    },
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_without_signal_says_what_waits_in_the_readers_language(
    browser, wait, live_server, no_signal, two_player_round, artefacts, language
):
    from django.conf import settings

    words = OFFLINE_WORDS[language]
    board_game, reported_game = Game.objects.filter(table__round=two_player_round).order_by(
        "number"
    )[:2]
    token = board_game.table.seats.get(position=1).report_token
    report_url = f"{live_server.url}/report/{token}/"
    board_url = f"{live_server.url}/games/{board_game.pk}/record/{token}/"
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    browser.get(report_url)
    kept_by_the_worker(browser, wait, report_url)
    browser.get(board_url)
    kept_by_the_worker(browser, wait, board_url)

    no_signal.cut()
    for text in simple_game(2):
        tap_move(browser, wait, text)
    wait(lambda b: status_line(b) == words["plies"])
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    browser.save_screenshot(str(artefacts / f"offline-board-{language}-390.png"))

    browser.get(report_url)
    report_on_the_link(browser, reported_game)
    wait(lambda b: status_line(b) == words["report"])
    assert words["row"] in browser.find_element(By.ID, f"game-{reported_game.pk}").text
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    browser.save_screenshot(str(artefacts / f"offline-report-{language}-390.png"))

    no_signal.restore()
    wait(lambda b: ResultSubmission.objects.filter(game=reported_game).exists(), 30)
    wait(lambda b: Ply.objects.filter(game=board_game).count() == 2, 30)
    # The page reloads once nothing waits; the report's outcome is listed in the
    # reader's language too.
    wait(lambda b: "offline-status" in b.page_source and not status_line(b).startswith("Offline"))
    browser.save_screenshot(str(artefacts / f"offline-report-sent-{language}-390.png"))


def test_an_entry_typed_offline_goes_from_whichever_page_of_the_site_is_open_when_the_signal_returns(
    browser, wait, live_server, no_signal, two_player_round
):
    game = Game.objects.filter(table__round=two_player_round).order_by("number").first()
    seat = game.table.seats.get(position=1)
    report_url = f"{live_server.url}/report/{seat.report_token}/"
    browser.get(report_url)
    kept_by_the_worker(browser, wait, report_url)
    no_signal.cut()
    browser.get(report_url)
    report_on_the_link(browser, game)
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")
    browser.get("about:blank")  # the player's link closed before the signal returns
    no_signal.settle()
    no_signal.restore()
    assert not ResultSubmission.objects.filter(game=game).exists()
    # She opens the tournament's public page, which has no status line of its own.
    browser.get(f"{live_server.url}/t/{two_player_round.tournament.slug}/")
    wait(lambda b: ResultSubmission.objects.filter(game=game, by_seat=seat).exists(), 30)
