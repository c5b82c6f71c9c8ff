"""The pairing editor in Chromium, by clicks and keys: moving a player to the bye shows
the warning it creates without reloading the page, saving asks for the reason, and the
reason and the warning are in the audit trail."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next
from tournaments.models import AuditEntry, Seat
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser


def page_text(browser: Any) -> str:
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def save_button(browser: Any) -> Any:
    return browser.find_element(By.XPATH, "//button[normalize-space()='Save the changes']")


def test_moving_a_player_to_the_bye_with_a_warning_overridden(
    browser, wait, new_page, login, live_server, artefacts
):
    cup = tournament_with_players(5, slug="cup", name="Cup", published=True)
    round_ = round_pair_next(tournament=cup, by=Actor.command())  # P01+P02, P03+P04+P05
    director = UserFactory()
    cup.directors.add(director)
    login(director)
    browser.get(f"{live_server.url}/t/cup/manage/")
    five = cup.entries.get(seed=5)
    choice = wait(lambda b: b.find_element(By.ID, f"move-{five.pk}"))
    browser.execute_script("window.agonNoReload = 'still here';")

    # The policy gives no bye: the change's warning shows at once, and the reason is asked.
    Select(choice).select_by_value("bye")
    wait(lambda b: "a bye for P05" in b.find_element(By.ID, "editor-warnings").text)
    reason = browser.find_element(By.ID, "override-reason")
    assert reason.get_attribute("required") is not None
    assert browser.execute_script("return window.agonNoReload") == "still here"
    browser.save_screenshot(str(artefacts / "pairing-editor-warning.png"))

    # Saving without a reason is held back by the form itself: nothing changes. The
    # browser refuses an invalid form's submission at the click, before any request.
    assert browser.execute_script("return arguments[0].validity.valueMissing", reason)
    save_button(browser).click()
    assert browser.execute_script("return window.agonNoReload") == "still here"
    assert not Seat.objects.filter(round=round_, table__is_bye=True).exists()

    # The same document still (a page loaded meanwhile would make `reason` stale here).
    reason.send_keys("P05 leaves at nine")
    new_page(lambda: save_button(browser).click())
    assert "The pairing of round 1 is changed." in page_text(browser)
    bye = Seat.objects.get(round=round_, table__is_bye=True)
    assert bye.entry_id == five.pk
    audit = AuditEntry.objects.get(action="pairing edit")
    assert audit.after["override_reason"] == "P05 leaves at nine"
    assert any("a bye for P05" in w for w in audit.after["warnings"])
    assert audit.user_id == director.pk

    # Back at a table: the saved pairing's own warning is gone again once P05 rejoins.
    # The message of the save before is still on the page: only a new page proves that
    # this save was answered.
    choice = wait(lambda b: b.find_element(By.ID, f"move-{five.pk}"))
    assert "a bye for P05" in browser.find_element(By.ID, "editor-warnings").text
    # The live check answers by refilling the list of the saved pairing's warnings: its
    # items replaced prove the answer came (the change itself creates nothing to show).
    saved_warning = browser.find_element(By.CSS_SELECTOR, "#editor-warnings [data-current] li")
    # Table 2 (P03 and P04): the book's 3-player table again (table 1 would put the
    # leader at one, against the book's rule).
    Select(choice).select_by_value("2")
    wait(expected_conditions.staleness_of(saved_warning))
    assert "This change creates:" not in browser.find_element(By.ID, "editor-warnings").text
    new_page(lambda: save_button(browser).click())
    assert "The pairing of round 1 is changed." in page_text(browser)
    assert not Seat.objects.filter(round=round_, table__is_bye=True).exists()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_editor_fits_a_phone_without_sideways_scrolling(
    browser, wait, login, live_server, artefacts, language
):
    """The organiser's page with the editor at 390 px: its table and reason field stay
    inside the page (the editor sat in a flex row that grew to its input's width)."""
    from django.conf import settings

    cup = tournament_with_players(9, slug="cup", name="Cup", published=True)
    round_pair_next(tournament=cup, by=Actor.command())
    director = UserFactory()
    cup.directors.add(director)
    login(director)
    browser.set_window_size(390, 844)
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    browser.get(f"{live_server.url}/t/cup/manage/")
    wait(lambda b: b.find_elements(By.ID, "editor"))
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    if width > inner:
        browser.save_screenshot(str(artefacts / f"pairing-editor-phone-{language}.png"))
    assert width <= inner, (width, inner)


def test_in_a_big_round_a_typed_place_is_checked_live_on_tab_and_saved(
    browser, wait, new_page, login, live_server, artefacts
):
    """60 players, 30 tables: the "move to" is typed (one shared list of places); Tab
    after typing "bye" checks it at once, without a reload; the warning it creates is in
    sight beside the row typed in, far above the end of the table; the save moves her."""
    from selenium.webdriver.common.keys import Keys

    big = tournament_with_players(60, slug="big", name="Big", published=True)
    round_ = round_pair_next(tournament=big, by=Actor.command())
    director = UserFactory()
    big.directors.add(director)
    login(director)
    browser.set_window_size(1280, 800)
    browser.get(f"{live_server.url}/t/big/manage/")
    mover = Seat.objects.get(round=round_, table__number=10, position=1).entry
    name = mover.player.name
    place = wait(lambda b: b.find_element(By.ID, f"move-{mover.pk}"))
    assert place.tag_name == "input" and place.get_attribute("list") == "editor-places"
    browser.execute_script("window.agonNoReload = 'still here';")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", place)
    place.clear()
    place.send_keys("bye", Keys.TAB)
    # Her partner, left alone, gets the bye with her: "a bye for P.., P..". The list of
    # what the change creates is hidden until the live check answers.
    wait(lambda b: name in b.find_element(By.CSS_SELECTOR, "#editor-warnings [data-created]").text)
    box = browser.find_element(By.ID, "editor-warnings")
    assert "a bye for" in box.text
    assert browser.execute_script("return window.agonNoReload") == "still here"
    top, bottom, height = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, innerHeight]",
        box,
    )
    assert 0 <= top < bottom <= height, (top, bottom, height)  # in sight, not 40 rows below
    browser.save_screenshot(str(artefacts / "pairing-editor-typed.png"))
    browser.find_element(By.ID, "override-reason").send_keys("leaves early")
    new_page(lambda: save_button(browser).click())
    assert "The pairing of round 1 is changed." in page_text(browser)
    assert Seat.objects.get(round=round_, entry=mover).table.is_bye


def test_moving_a_player_away_warns_of_the_partner_left_alone_and_the_book_and_marks_rows(
    browser, wait, login, live_server, artefacts
):
    """Round 2 of seven players (P01, P03, P05 on 36 points, P06, P07 on 9, P02, P04 on
    0; tables P05-P01, P06-P03, P07-P02-P04). P01 moved to P06 and P03's table: at once,
    without a reload, the editor says P05 is left alone with the bye, that the new
    3-player table is not the book's rule and why, and marks the four players' rows
    "changed" (a word, not a colour alone); P01's move taken back, the marks go."""
    from tournaments.desk.services.rounds import round_close, round_publish
    from tournaments.models import Game
    from tournaments.results.services.results import game_record_out

    cup = tournament_with_players(7, slug="cup", name="Cup", published=True, rounds_planned=3)
    first = round_pair_next(tournament=cup, by=Actor.command())
    round_publish(round=first, by=Actor.command())
    for game in Game.objects.filter(table__round=first).select_related("table"):
        n = game.table.seats.count()
        game_record_out(by=Actor.command(), game=game, out=[3] + [0] * (n - 1))
    round_close(round=first, by=Actor.command())
    round_pair_next(tournament=cup, by=Actor.command())
    director = UserFactory()
    cup.directors.add(director)
    login(director)
    browser.set_window_size(1366, 900)
    browser.get(f"{live_server.url}/t/cup/manage/")
    ids = dict(cup.entries.values_list("player__name", "pk"))
    choice = wait(lambda b: b.find_element(By.ID, f"move-{ids['P01']}"))

    def marked() -> set[str]:
        """The rows marked changed; each mark's word is shown (not hidden, displayed)."""
        rows = browser.execute_script(
            "return [...document.querySelectorAll('#editor tr.changed')].map(r => {"
            " const m = r.querySelector('[data-changed-mark]');"
            " return [r.querySelector('label').textContent, m.hidden,"
            " getComputedStyle(m).display, m.textContent]; })"
        )
        for _name, hidden, display, text in rows:
            assert not hidden and display != "none" and "changed" in text, rows
        return {name for name, *_rest in rows}

    assert marked() == set()
    browser.execute_script("window.agonNoReload = 'still here';")
    Select(choice).select_by_value("2")
    created = wait(
        lambda b: (
            b.find_element(By.CSS_SELECTOR, "#editor-warnings [data-created]").text
            if "left alone" in b.find_element(By.ID, "editor-warnings").text
            else None
        )
    )
    assert "P05 is left alone at table 1 and would get the bye" in created
    assert (
        "not the book's rule (the 3-player table goes to the lowest score group, section 21): "
        "P01 (36 points) is in a higher group than P07 (9 points)"
    ) in created
    wait(lambda b: marked() == {"P01", "P05", "P03", "P06"})
    assert browser.find_element(By.ID, "override-reason").get_attribute("required") is not None
    assert browser.execute_script("return window.agonNoReload") == "still here"
    browser.save_screenshot(str(artefacts / "pairing-editor-feedback.png"))

    # Back to her table: checked too, although the reason is now required and empty
    # (htmx posted a form only while it was valid); nothing created, no row marked.
    Select(choice).select_by_value("1")
    wait(lambda b: marked() == set())
    assert "left alone" not in browser.find_element(By.ID, "editor-warnings").text
