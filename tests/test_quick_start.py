"""The quick start (`config/bin/serve`): the demo loads on the embedded default, a second
load adds nothing, and the login it prints names the address actually served; a login
survives a restart (the secret kept in var/), and the server logs each line once."""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
import requests
from django.core.management import call_command

from config.settings import dev_secret_key
from tournaments.models import Game, Player, Tournament

pytestmark = [pytest.mark.embedded, pytest.mark.django_db]


ROOT = Path(__file__).resolve().parents[1]

# A session made by one process of the quick start: migrates only what a login needs
# (the whole schema takes several seconds), makes the organiser and logs her in.
LOG_IN = """
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
for app in ("auth", "sessions", "admin", "axes"):
    call_command("migrate", app, verbosity=0)
client = Client()
client.force_login(get_user_model().objects.create_superuser("organiser", "", "x"))
print(client.cookies["sessionid"].value)
"""


def _quick_start_env(database: Path) -> dict[str, str]:
    # As `config/bin/serve` runs: no DEBUG, no SECRET_KEY; a database of the test's own.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    return {
        **env,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _served_command() -> list[str]:
    """The `runserver` line `config/bin/serve` ends with, its address left out."""
    line = next(
        line
        for line in (ROOT / "config/bin/serve").read_text().splitlines()
        if line.startswith("exec python manage.py runserver")
    )
    return [sys.executable, *shlex.split(line)[2:-1]]


def test_a_login_survives_a_restart_of_the_quick_start_and_its_request_is_logged_once(tmp_path):
    env = _quick_start_env(tmp_path / "db.sqlite3")
    made = subprocess.run(
        [sys.executable, "-c", LOG_IN],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    session = made.stdout.strip().splitlines()[-1]

    # A second process, started as the quick start starts the server: the session
    # made by the first one still logs in.
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [*_served_command(), f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                answer = requests.get(
                    f"http://127.0.0.1:{port}/admin/",
                    cookies={"sessionid": session},
                    allow_redirects=False,
                    timeout=10,
                )
                break
            except requests.ConnectionError:
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert answer.status_code == 200, answer.headers.get("Location")
    requests_logged = [line for line in log.read_text().splitlines() if "GET /admin/" in line]
    assert len(requests_logged) == 1, log.read_text()
    # Served as the quick start serves: no autoreloader restarting it on a saved file.
    assert "Watching for file changes" not in log.read_text()
    assert (ROOT / "var" / "secret_key").stat().st_mode & 0o777 == 0o600


def test_the_quick_starts_secret_is_made_once_and_readable_only_by_its_owner(tmp_path):
    path = tmp_path / "var" / "secret_key"
    first = dev_secret_key(path)
    assert len(first) >= 50
    assert path.stat().st_mode & 0o777 == 0o600
    assert dev_secret_key(path) == first
    assert list(path.parent.iterdir()) == [path]  # nothing left aside


def _counts() -> tuple[int, int, int]:
    return Player.objects.count(), Tournament.objects.count(), Game.objects.count()


def test_the_demo_loads_once_and_prints_the_address_it_is_served_on():
    first = StringIO()
    call_command("demo", address="0.0.0.0:8123", stdout=first)
    loaded = _counts()
    assert all(loaded), loaded
    assert "http://0.0.0.0:8123/admin/" in first.getvalue()
    assert "127.0.0.1:8000" not in first.getvalue()

    again = StringIO()
    call_command("demo", stdout=again)
    assert _counts() == loaded
    assert "http://127.0.0.1:8000/admin/" in again.getvalue()
