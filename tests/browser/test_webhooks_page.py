"""The club page's webhooks in Chromium, in English and German at 1,366 and 390 px: the
organiser adds an address (its secret shown once), sends a test that a real receiver on
loopback checks and answers, and reads the answer in the log; nothing is wider than the
phone but the log's own scrolling region. Screenshots go to var/artefacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.factories import ClubFactory, UserFactory
from tests.webhook_receiver import start_receiver, stop_receiver

pytestmark = pytest.mark.browser
# The accessibility pass's axe and rules (tests/browser/test_accessibility.py): the WCAG
# 2.x A and AA rules, with 2.2's target size.
AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WORDS = {
    "en": {"add": "Add a webhook", "test": "Send a test", "log": "Delivery log"},
    "de": {"add": "Webhook hinzufügen", "test": "Test senden", "log": "Zustellprotokoll"},
}


def axe_violations(browser: Any) -> list[str]:
    browser.set_script_timeout(60)
    if not browser.execute_script("return typeof window.axe === 'object'"):
        browser.execute_script(AXE.read_text(encoding="utf-8"))
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]},
                           resultTypes: ['violations']})
          .then(r => done(r.violations.map(v => v.id + ': ' +
              v.nodes.map(n => n.target.join(' ')).join(', '))))
          .catch(e => done(['axe-error: ' + e]));""",
        TAGS,
    )


def click(element: Any) -> None:
    """A click as the organiser's (scrolled to, in the page's own event loop)."""
    element.parent.execute_script(
        "arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", element
    )


@pytest.fixture
def receiver() -> Any:
    found = start_receiver(answer=b'{"ok": true, "seen": "agon"}')
    yield found
    stop_receiver(found)


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_organiser_adds_a_webhook_sends_a_test_and_reads_the_answer_in_the_log(
    browser: Any,
    wait: Any,
    live_server: Any,
    transactional_db: None,
    login: Any,
    artefacts: Any,
    settings: Any,
    receiver: Any,
    language: str,
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the receiver listens on loopback
    user = UserFactory()
    club = ClubFactory(name="Pentagame-Club Köln", slug="koeln", city="Köln")
    club.organisers.add(user)
    login(user)
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    words = WORDS[language]
    browser.set_window_size(1366, 900)
    browser.get(f"{live_server.url}/clubs/koeln/")
    wait(lambda b: b.find_elements(By.ID, "webhooks"))
    browser.get(browser.find_element(By.LINK_TEXT, words["add"]).get_attribute("href"))
    wait(lambda b: b.find_elements(By.NAME, "url"))
    browser.save_screenshot(str(artefacts / f"webhook-form-1366-{language}.png"))
    assert axe_violations(browser) == [], ("form", language)
    browser.find_element(By.CSS_SELECTOR, "input[name=url]").send_keys(receiver.url)
    browser.find_element(By.CSS_SELECTOR, "input[name=description]").send_keys("Club-Bot")
    click(browser.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]"))
    secret = wait(lambda b: b.find_elements(By.ID, "webhook-secret"))[0].text
    assert secret.startswith("whsec_")
    receiver.secret = secret
    browser.save_screenshot(str(artefacts / f"webhook-created-1366-{language}.png"))
    browser.get(
        browser.find_element(By.CSS_SELECTOR, "main a[href$='#webhooks']").get_attribute("href")
    )
    wait(lambda b: b.find_elements(By.ID, "webhooks"))
    test_button = browser.find_element(
        By.XPATH, f"//section[@id='webhooks']//button[normalize-space()='{words['test']}']"
    )
    click(test_button)
    wait(lambda b: "HTTP 200" in b.find_element(By.ID, "webhooks").text)
    assert receiver.received and receiver.received[0].valid
    section = browser.find_element(By.ID, "webhooks")
    assert words["log"] in section.text and "webhook.test" in section.text
    assert "seen" in section.text and " ms" in section.text
    # The secret is never on the club's page.
    assert secret not in browser.page_source
    for width in (1366, 390):
        browser.set_window_size(width, 900)
        browser.get(f"{live_server.url}/clubs/koeln/#webhooks")
        wait(lambda b: b.execute_script("return document.readyState") == "complete")
        browser.execute_script("document.getElementById('webhooks').scrollIntoView()")
        browser.save_screenshot(str(artefacts / f"webhooks-club-{width}-{language}.png"))
        page, inner = browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert page <= inner, f"the club page is wider than {width} px"
        assert axe_violations(browser) == [], (width, language)
