"""tests/browser/test_offline.py, every test, on the production site (conftest.py here):
the service worker from /sw.js, the collected static files, nginx dropping requests
while the signal is cut."""

import pytest

from tests.browser.test_offline import *  # noqa: F403

pytestmark = [pytest.mark.browser, pytest.mark.production]
