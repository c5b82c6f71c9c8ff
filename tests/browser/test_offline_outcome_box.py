"""The player's offline outcome box (issue 42, "Why" 9): what became of each entry sent
from her device stands under the heading of its outcome, in the page's words and
language (the template's, never the script's), and she can dismiss it."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.browser.test_offline import (  # noqa: F401 (fixtures)
    COMMAND,
    kept_by_the_worker,
    no_signal,
    report_on_the_link,
    status_line,
    two_player_round,
)
from tournaments.models import Game, ResultSubmission
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.browser

SHOTS = "/tmp/shots/P5"


def box_groups(browser: Any) -> dict[str, tuple[str, list[str]]]:
    """The box as shown: each outcome's heading and lines ({} while hidden)."""
    script = """
      const box = document.getElementById("offline-status");
      if (!box || !box.checkVisibility()) return {};
      const groups = {};
      for (const group of box.querySelectorAll("[data-group]")) {
        const heading = group.querySelector("[data-heading]").innerText.trim();
        const lines = [...group.querySelectorAll("li")].map((li) => li.innerText.trim());
        groups[group.dataset.group] = [heading, lines];
      }
      return groups;
    """
    return {k: (v[0], v[1]) for k, v in browser.execute_script(script).items()}


def template_word(browser: Any, name: str) -> str:
    """A word of the box as the template rendered it in the page's language."""
    return str(browser.find_element(By.ID, "offline-status").get_attribute(f"data-{name}"))


def test_an_entry_held_for_the_organiser_stands_under_its_own_heading_and_can_be_dismissed(
    browser,
    wait,
    live_server,
    no_signal,  # noqa: F811
    two_player_round,  # noqa: F811
):
    first, second = Game.objects.filter(table__round=two_player_round).order_by("number")[:2]
    seat = second.table.seats.get(position=1)
    url = f"{live_server.url}/report/{seat.report_token}/"
    browser.get(url)
    kept_by_the_worker(browser, wait, url)

    no_signal.cut()
    report_on_the_link(browser, second)
    wait(lambda b: status_line(b) == "Offline — 1 result waiting to be sent")
    # Meanwhile the organiser enters the game's result: the report no longer fits.
    game_record_out(game=second, out=[1, 3], by=COMMAND)
    no_signal.restore()
    wait(lambda b: ResultSubmission.objects.filter(game=second, state="held").exists(), 30)
    # Read once, as found: the box is drawn again at every answer and change.
    heading, lines = wait(lambda b: box_groups(b).get("dispute"), 30)
    held = template_word(browser, "heading-dispute")
    assert heading == held == "Kept for the organiser"
    assert "dispute" not in browser.find_element(By.ID, "offline-status").text
    assert len(lines) == 1 and lines[0].startswith("Game 2: ")
    for width in (1366, 390):
        browser.set_window_size(width, 900)
        browser.save_screenshot(f"{SHOTS}/outcome-box-held-{width}.png")
    browser.set_window_size(1280, 900)

    # Dismissed, it is gone, and stays gone on the next page (shown there before).
    close = browser.find_element(By.CSS_SELECTOR, "#offline-status [data-dismiss]")
    assert close.get_attribute("aria-label") == template_word(browser, "dismiss-label")
    close.click()
    wait(lambda b: not b.find_element(By.ID, "offline-status").is_displayed())
    wait(
        lambda b: b.execute_async_script(
            """
            const done = arguments[0];
            const open = indexedDB.open("agon-offline");
            open.onsuccess = () => {
              const all = open.result.transaction("items").objectStore("items").getAll();
              all.onsuccess = () => done(all.result.every((item) => item.seen));
            };
            """
        )
    )
    browser.refresh()
    wait(lambda b: b.execute_script("return document.readyState") == "complete")
    wait(lambda b: b.find_element(By.ID, f"game-{first.pk}"))
    assert box_groups(browser) == {}

    # In German the box speaks the page's German: its words are the template's.
    browser.add_cookie({"name": "django_language", "value": "de", "path": "/"})
    browser.get(url)
    kept_by_the_worker(browser, wait, url)
    no_signal.cut()
    report_on_the_link(browser, first)
    no_signal.restore()
    wait(lambda b: ResultSubmission.objects.filter(game=first, state="reported").exists(), 30)
    heading, lines = wait(lambda b: box_groups(b).get("saved"), 30)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert heading == template_word(browser, "heading-saved")
    # The server's own words, in German: the game and what the report did.
    assert len(lines) == 1 and "Partie 1" in lines[0], lines
    assert "Ergebnis gemeldet; ein Gegner muss es bestätigen" in lines[0], lines
    close = browser.find_element(By.CSS_SELECTOR, "#offline-status [data-dismiss]")
    assert close.get_attribute("aria-label") == template_word(browser, "dismiss-label")
    for width in (1366, 390):
        browser.set_window_size(width, 900)
        browser.save_screenshot(f"{SHOTS}/outcome-box-saved-de-{width}.png")
