"""The organiser's run page in Chromium (issue 27, items 1, 3, 5, 7 and 8), at 1,366 px
and on a phone, in English and German: each seat's report link is a "Copy link" button
that copies it and a "QR / link" disclosure whose QR code loads only when opened; the
players list has one form for announced byes and absences; a closed evening is shown
read-only, and its standings list who did not play apart; a 2 vs 2 event speaks of
teams on its run page and leads with the team standings on its public page."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services.evenings import evening_close
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Game, Seat, Skip, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.browser
BY = Actor.command()


def page_text(browser: Any) -> str:
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def no_sideways_scroll(browser: Any) -> tuple[int, int]:
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    return width, inner


def play(tournament: Tournament, team: bool = False) -> None:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        out = [3, 1, 2, 1] if team else [3] + [1] * (seats - 1)
        game_record_out(game=game, out=out, by=BY)
    round_close(round=round_, by=BY)


def use_language(browser: Any, live_server: Any, language: str) -> None:
    from django.conf import settings

    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


def test_a_seats_link_is_copied_by_its_button_and_its_qr_shown_on_demand(
    browser, wait, new_page, login, live_server, server_log, artefacts
):
    cup = tournament_with_players(13, slug="cup", name="Cup", rounds_planned=3, published=True)
    round_ = round_pair_next(tournament=cup, by=BY)
    round_publish(round=round_, by=BY)
    director = UserFactory()
    cup.directors.add(director)
    login(director)
    browser.set_window_size(1366, 768)
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {
            "origin": live_server.url,
            "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
        },
    )
    browser.get(f"{live_server.url}/t/cup/manage/")
    # The script shows the copy buttons (hidden without it): one per seat, 13.
    wait(lambda b: len(b.find_elements(By.CSS_SELECTOR, "button.copy-link:not([hidden])")) == 13)
    assert "report link:" not in page_text(browser)
    # The round's table fits the content column: no link printed out to wrap or cut off.
    fits = browser.execute_script(
        "const t = document.querySelector('#round table.pairings');"
        "return [t.scrollWidth, t.parentElement.clientWidth]"
    )
    assert fits[0] <= fits[1], fits
    # No QR code is fetched while its disclosure is closed.
    assert not [a for a in server_log.answers if a[1].endswith("/qr.svg")]

    seat = Seat.objects.get(round=round_, table__number=1, position=1)
    url = f"{live_server.url}/report/{seat.report_token}/"
    row = browser.find_element(By.ID, "table-1")
    control = row.find_elements(By.CSS_SELECTOR, ".report-link")[0]
    control.find_element(By.CSS_SELECTOR, "button.copy-link").click()
    wait(
        lambda b: b.find_element(By.ID, "copy-status").get_attribute("textContent") == "Link copied"
    )
    copied = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, e => done('refused: ' + e));"
    )
    assert copied == url
    browser.save_screenshot(str(artefacts / "run-page-report-links.png"))

    # "QR / link": the link itself (reachable without the script) and its QR code.
    control.find_element(By.TAG_NAME, "summary").click()
    link = wait(lambda b: control.find_element(By.CSS_SELECTOR, "a.report-url"))
    wait(lambda b: link.is_displayed())
    assert link.text == url and link.get_attribute("href") == url
    image = control.find_element(By.TAG_NAME, "img")
    wait(lambda b: b.execute_script("return arguments[0].naturalWidth", image) > 0)
    assert seat.entry.player.name in image.get_attribute("alt")
    qr = [a for a in server_log.answers if a[1].endswith("/qr.svg")]
    assert qr == [("GET", f"/t/cup/manage/report-links/{seat.report_token}/qr.svg", 200)]
    right = browser.execute_script("return arguments[0].getBoundingClientRect().right", link)
    assert right <= browser.execute_script("return window.innerWidth")
    browser.save_screenshot(str(artefacts / "run-page-report-qr.png"))

    # The players list: no Save button per row; one form announces a requested bye.
    players = browser.find_element(By.CSS_SELECTOR, "#players table tbody")
    assert len(players.find_elements(By.TAG_NAME, "tr")) == 13
    assert players.find_elements(By.TAG_NAME, "button") == []
    assert players.find_elements(By.TAG_NAME, "select") == []
    form = browser.find_element(By.ID, "skip")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", form)
    Select(form.find_element(By.NAME, "entry")).select_by_visible_text("P05")
    form.find_element(By.NAME, "round_number").send_keys("2")
    Select(form.find_element(By.NAME, "bye")).select_by_value("1")
    browser.save_screenshot(str(artefacts / "run-page-players.png"))
    new_page(form.find_element(By.TAG_NAME, "button").click)
    assert "P05 has a requested bye in round 2." in page_text(browser)
    p05 = cup.entries.get(player__name="P05")
    assert "bye requested for round 2" in browser.find_element(By.ID, f"entry-{p05.pk}").text
    skip = Skip.objects.get()
    assert (skip.entry_id, skip.round_number, skip.bye) == (p05.pk, 2, True)
    server_log.assert_no_errors()


@pytest.mark.parametrize("language", ["en", "de"])
def test_on_a_phone_the_links_fit_and_a_closed_evening_reads_as_closed(
    browser, wait, login, live_server, artefacts, language
):
    cup = tournament_with_players(9, slug="cup", name="Cup", published=True)
    round_publish(round=round_pair_next(tournament=cup, by=BY), by=BY)
    evening = TournamentFactory(kind=Tournament.Kind.EVENING, slug="night", name="Night")
    for name in ("Anna", "Bert", "Cleo", "Dora", "Emil"):
        entry_services.entry_add(tournament=evening, name=name, by=BY)
    for entry in evening.entries.exclude(player__name="Emil"):
        entry_services.entry_check_in(entry=entry, by=BY)
    play(evening)
    evening_close(tournament=evening, by=BY)
    director = UserFactory()
    cup.directors.add(director)
    evening.directors.add(director)
    login(director)
    use_language(browser, live_server, language)
    browser.set_window_size(390, 844)
    german = language == "de"

    browser.get(f"{live_server.url}/t/cup/manage/")
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, "button.copy-link:not([hidden])"))
    copy, disclose = ("Link kopieren", "QR / Link") if german else ("Copy link", "QR / link")
    first = browser.find_element(By.CSS_SELECTOR, "#table-1 .report-link")
    # (Selenium's text includes the visually hidden rest of the name: whose link it is.)
    assert first.find_element(By.TAG_NAME, "button").text.startswith(copy)
    first.find_element(By.TAG_NAME, "summary").click()
    link = wait(lambda b: first.find_element(By.CSS_SELECTOR, "a.report-url"))
    wait(lambda b: link.is_displayed())
    assert first.find_element(By.TAG_NAME, "summary").text.startswith(disclose)
    right = browser.execute_script("return arguments[0].getBoundingClientRect().right", link)
    browser.save_screenshot(str(artefacts / f"run-page-phone-{language}.png"))
    assert right <= 390, right  # the whole link on screen, broken over lines
    width, inner = no_sideways_scroll(browser)
    assert width <= inner, (width, inner)

    # The closed evening: read-only, saying so, with the way back and nothing else.
    browser.get(f"{live_server.url}/t/night/manage/")
    note = wait(lambda b: b.find_element(By.ID, "read-only")).text
    text = page_text(browser)
    if german:
        assert note.startswith("Dieser Spieleabend ist abgeschlossen")
        assert "Den Abend wieder öffnen" in text
        gone = ("Spieler eintragen", "Nachmeldung", "Zurückziehen", "Link kopieren")
    else:
        assert note.startswith("This evening is closed and rated")
        assert "Reopen the evening" in text
        gone = ("Enter players", "Late entry", "Withdraw", "Copy link", "Check-in at the door")
    for word in gone:
        assert word not in text, word
    assert browser.find_elements(By.CSS_SELECTOR, "#players form") == []
    browser.save_screenshot(str(artefacts / f"run-page-closed-evening-{language}.png"))
    width, inner = no_sideways_scroll(browser)
    assert width <= inner, (width, inner)

    # Its standings: Emil, who never came, is not ranked but listed apart.
    browser.get(f"{live_server.url}/t/night/standings/")
    apart = wait(lambda b: b.find_element(By.CSS_SELECTOR, "p.not-ranked")).text
    assert apart == ("Nicht gespielt, kein Rang: Emil" if german else "Did not play, no rank: Emil")
    names = browser.execute_script(
        "return [...document.querySelectorAll('table.standings tbody th a')].map(a => a.innerText)"
    )
    assert sorted(names) == ["Anna", "Bert", "Cleo", "Dora"]
    browser.save_screenshot(str(artefacts / f"standings-not-ranked-{language}.png"))


def test_a_team_event_speaks_of_teams(browser, wait, login, live_server, artefacts):
    event = TournamentFactory(kind=Tournament.Kind.TEAMS, slug="pairs", name="Pairs Cup")
    for name, players in (
        ("Stars", ["Ann", "Bea"]),
        ("Moons", ["Cid", "Dan"]),
        ("Suns", ["Eve", "Fay"]),
        ("Comets", ["Gus", "Hal"]),
    ):
        team_add(tournament=event, name=name, players=players, by=BY)
    play(event, team=True)
    director = UserFactory()
    event.directors.add(director)
    login(director)
    browser.set_window_size(1366, 768)
    browser.get(f"{live_server.url}/t/pairs/manage/")
    header = wait(lambda b: b.find_element(By.CSS_SELECTOR, "main h1 + p")).text
    assert "two teams per table, partners opposite" in header
    assert "3-player" not in header
    browser.save_screenshot(str(artefacts / "team-event-run-page.png"))

    # The public page leads with the teams; the players' standings are one link away.
    browser.get(f"{live_server.url}/t/pairs/")
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "main h2")]
    assert headings[1].startswith("Team standings")
    rows = browser.find_elements(By.CSS_SELECTOR, "#team-standings tbody tr")
    assert len(rows) == 4 and {r.find_element(By.TAG_NAME, "th").text for r in rows} == {
        "Stars",
        "Moons",
        "Suns",
        "Comets",
    }
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.standings")) == 1
    browser.find_element(By.LINK_TEXT, "standings of the players")
    browser.save_screenshot(str(artefacts / "team-event-public-page.png"))
