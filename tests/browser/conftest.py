"""A real headless Chromium, driven through chromedriver, against the live test server.

The browser is Debian's `chromium` with its matching `chromium-driver` (installed by the
test command with apt): nothing is downloaded at run time. Without them the browser
tests fail, never skip: a machine that should run them cannot pass silently.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ROOT / "var" / "artefacts"

# Quiet and offline: no first-run pages, no updates, no telemetry, no QUIC probing.
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)


def _missing(reason: str) -> None:
    pytest.fail(reason)


@pytest.fixture(scope="session")
def artefacts() -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS


@pytest.fixture(scope="session")
def _chromium_paths() -> tuple[str, str]:
    browser = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    driver = (
        os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
    )
    for path, package in ((browser, "chromium"), (driver, "chromium-driver")):
        if not os.access(path, os.X_OK):
            _missing(f"{path} not found: apt-get install {package}")
    return browser, driver


@pytest.fixture(scope="session")
def _chromium(_chromium_paths: tuple[str, str]) -> Iterator[Any]:
    """One Chromium for the whole session (a start costs 1-2 s, and there are dozens of
    browser tests); `browser` gives each test a clean state in it."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("the selenium package is not installed")
    binary, driver_path = _chromium_paths
    profile = tempfile.mkdtemp(prefix="agon-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1280,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Giving both paths keeps Selenium Manager from looking for (and downloading) either.
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _clean_slate(driver: Any, origin: str) -> None:
    """What a new profile would give: one blank tab, 1280x900, no cookies, no cache, no
    storage for the live server's origin, and the console log drained."""
    handles = driver.window_handles
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.get("about:blank")
    driver.delete_all_cookies()  # of the current origin: the CDP call below does all
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    # Storage is kept per origin; the live server's is the only one tests write to.
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    driver.set_window_size(1280, 900)
    driver.get_log("browser")


@pytest.fixture
def browser(_chromium: Any, live_server: Any) -> Iterator[Any]:
    """The session's Chromium, wiped clean for this test (see `_clean_slate`); 1280x900
    unless resized."""
    _clean_slate(_chromium, live_server.url)
    try:
        yield _chromium
        # pytest shows this only for a failed test: the page's console, errors included.
        for entry in _chromium.get_log("browser"):
            print(f"console {entry['level']}: {entry['message']}")
    finally:
        # Leave no page polling the live server while the test's tables are flushed.
        _clean_slate(_chromium, live_server.url)


@pytest.fixture(scope="session", autouse=True)
def _live_server_closes_its_connections(django_db_setup: None) -> Iterator[None]:
    """The live server answers each request in a thread of its own. With persistent
    connections (CONN_MAX_AGE, 60 s in config/services.py) every such thread left its
    connection open, and the test database could not be dropped at the end ("being
    accessed by other users"): here each request closes its connection when it ends."""
    from django.db import connections

    settings_dict = connections["default"].settings_dict  # shared by every thread's
    before = settings_dict.get("CONN_MAX_AGE", 0)
    settings_dict["CONN_MAX_AGE"] = 0
    yield
    settings_dict["CONN_MAX_AGE"] = before


@pytest.fixture(autouse=True)
def _live_server_idle_at_teardown(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the browser has quit (this is set up before `browser`, so torn down after
    it), wait for the live server's request threads to finish: a live page's last poll
    still running while the test's tables are flushed could deadlock the TRUNCATE."""
    yield
    if "live_server" not in request.fixturenames:
        return
    httpd = getattr(request.getfixturevalue("live_server").thread, "httpd", None)
    # socketserver.ThreadingMixIn keeps its request threads here (not public API).
    threads = getattr(httpd, "_threads", None)
    # A server that never answered a request holds a _NoThreads, which cannot be listed.
    for thread in list(threads) if isinstance(threads, list) else ():
        thread.join(timeout=15)
        if thread.is_alive():
            pytest.fail("a live-server request was still running 15 s after the browser quit")


@pytest.fixture
def wait(browser: Any) -> Callable[..., Any]:
    """wait(condition, timeout=10): poll condition(driver) until it is truthy. A poll
    that finds an element the page replaced a moment later (live pages re-render)
    counts as "not yet", not as a failure."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    def until(condition: Callable[[Any], Any], timeout: float = 10) -> Any:
        return WebDriverWait(
            browser,
            timeout,
            poll_frequency=0.05,
            ignored_exceptions=(StaleElementReferenceException,),
        ).until(condition)

    return until


@pytest.fixture
def new_page(browser: Any, wait: Callable[..., Any]) -> Callable[..., None]:
    """new_page(action, timeout=15): run `action` (a click or submit that loads a page),
    then return only once the server's answer has replaced the old page. Waiting for a
    text instead can return at once when the old page already shows it (a message left
    from the save before), and the test then races the server."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By

    def after(action: Callable[[], Any], timeout: float = 15) -> None:
        old = browser.find_element(By.TAG_NAME, "html")

        def gone(_driver: Any) -> bool:
            # Selenium's staleness_of, plus the other way Chromium says the same while
            # the next document replaces the old one: "Node with given id does not
            # belong to the document" (seen in CI on Chromium 156).
            try:
                old.is_enabled()
            except StaleElementReferenceException:
                return True
            except WebDriverException as exc:
                if "does not belong to the document" in str(exc):
                    return True
                raise
            return False

        action()
        wait(gone, timeout)
        wait(lambda b: b.execute_script("return document.readyState") == "complete", timeout)

    return after


@pytest.fixture
def login(browser: Any, live_server: Any) -> Callable[[Any], None]:
    """Log a user in by handing the browser a session made on the server side."""
    from django.conf import settings
    from django.test import Client

    def log_in(user: Any) -> None:
        client = Client()
        client.force_login(user)
        browser.get(f"{live_server.url}/healthz")
        browser.add_cookie(
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "path": "/",
            }
        )

    return log_in


class ServerLog:
    """What the live server answered while a test ran: (method, path, status) for every
    request its views handled (static files aside), and the tracebacks of the
    exceptions that escaped a view."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, str, int]] = []
        self.exceptions: list[str] = []

    def errors(self) -> list[tuple[str, str, int]]:
        """Every answer of the server error kind (5xx: the error page, or unavailable)."""
        return [answer for answer in self.answers if answer[2] >= 500]

    def assert_no_errors(self) -> None:
        assert not self.errors() and not self.exceptions, "\n".join(
            [*map(repr, self.errors()), *self.exceptions]
        )


@pytest.fixture
def server_log(monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerLog]:
    """Records the live server's answers (see ServerLog). Django's request handler is
    wrapped where every request passes, so pages, form posts and the pages' own fetches
    are all seen, from whichever of the live server's threads answered them."""
    import traceback

    from django.core.handlers.base import BaseHandler
    from django.core.signals import got_request_exception

    log = ServerLog()
    answer = BaseHandler.get_response

    def recorded(handler: BaseHandler, request: Any) -> Any:
        response = answer(handler, request)
        log.answers.append((request.method, request.get_full_path(), response.status_code))
        return response

    def failed(sender: Any, request: Any = None, **kwargs: Any) -> None:
        log.exceptions.append(traceback.format_exc())

    monkeypatch.setattr(BaseHandler, "get_response", recorded)
    got_request_exception.connect(failed, weak=False, dispatch_uid="browser-server-log")
    try:
        yield log
    finally:
        got_request_exception.disconnect(dispatch_uid="browser-server-log")
        # pytest shows this only for a failed test: what went wrong on the server.
        for answer in log.errors():
            print(f"server answered {answer}")
        for exception in log.exceptions:
            print(exception)
