"""tests/browser/test_live_tables.py, every test, on the production site (conftest.py
here): the sockets through nginx to the live process's two workers, config/live_layer.py on Redis."""

import pytest

from tests.browser.test_live_tables import *  # noqa: F403

pytestmark = [pytest.mark.browser, pytest.mark.production]
