"""Shared fixtures.

Tests that touch no database are marked `core` automatically: the test command runs
them once, on the embedded default; everything else runs there and again against
PostgreSQL + Redis + a real Celery worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
_DB_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "admin_client"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        uses_db = item.get_closest_marker("django_db") is not None or bool(fixtures & _DB_FIXTURES)
        special = item.get_closest_marker("services") or item.get_closest_marker("browser")
        if not uses_db and not special:
            item.add_marker(pytest.mark.core)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "core: touches no database (added automatically)")


@pytest.fixture(autouse=True)
def _eager_tasks_unless_services(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside `services` tests, tasks run in-process even when REDIS_URL is set, so the
    same test gives the same answer on both passes; `services` tests use the real worker."""
    from config.celery import app

    if request.node.get_closest_marker("services"):
        yield
        return
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


def _database_url(settings_dict: dict[str, Any]) -> str:
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


def start_celery_worker(
    log_name: str = "celery-test-worker.log", queues: str | None = None
) -> subprocess.Popen[bytes]:
    """A real `celery worker` process on the test database and the Redis of REDIS_URL
    (consuming ``queues`` if given), answering pings; the caller stops it. Needs the
    test database to exist."""
    from django.db import connection

    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.fail(
            "services tests need DATABASE_URL (PostgreSQL) and REDIS_URL: run config/bin/test"
        )
    env = dict(os.environ, DATABASE_URL=_database_url(connection.settings_dict))
    log = open(ROOT / "var" / log_name, "ab")  # noqa: SIM115 - the child writes to it
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config.worker",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            *(["--queues", queues] if queues else []),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()  # the child keeps its own descriptor
    from config.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the celery worker did not start; see var/{log_name}")
    return proc


def stop_celery_worker(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `celery worker` on the test database and the Redis of REDIS_URL."""
    proc = start_celery_worker()
    yield proc
    stop_celery_worker(proc)
