"""The production settings (config/settings.py, DEBUG=false from the environment) as the
production pass serves them, with one change: no persistent database connections. A
server process must hold none between requests, or the TRUNCATE that empties the test
database after each test waits for it (CONN_MAX_AGE is 60 in config/services.py and has
no variable of its own)."""

from config.settings import *  # noqa: F403
from config.settings import DATABASES

DATABASES["default"]["CONN_MAX_AGE"] = 0
