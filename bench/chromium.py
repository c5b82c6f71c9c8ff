"""Debian's headless Chromium for the browser benchmarks, as the browser tests start it
(no first-run pages, no background traffic), in a profile of its own."""

from __future__ import annotations

import shutil
import tempfile
from typing import Any


def chromium(*, width: int, height: int) -> tuple[Any, str]:
    """A driver and its profile folder (the caller removes it when done)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="agon-bench-")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path)), profile
