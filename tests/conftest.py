"""Shared fixtures.

Tests that touch no database are marked `core` automatically: the test command runs
them once, on the embedded default; everything else runs there and again on PostgreSQL
and Redis (pass 2). Celery tasks run in-process (eagerly) in every test except those
marked `worker` (added automatically to tests that use `celery_worker_process`): only
those send tasks through Redis to a real `celery worker` process, and only they can
leave a task running; `_no_task_left_running` waits for it before the database is
flushed.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent
# The tests' webhook receivers listen on loopback, which the site refuses unless told
# (docs/league.md, "Webhooks"), and retry after a second, not half a minute: in the
# environment, so that a Celery worker a test starts has them too (the tests in this
# process set them with the `settings` fixture).
os.environ.setdefault("WEBHOOK_ALLOW_PRIVATE", "true")
os.environ.setdefault("WEBHOOK_RETRY_BASE_SECONDS", "1")
_DB_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "admin_client"}
_FLUSHED = _DB_FIXTURES - {"django_db_setup"}  # a test database of its own for the test
# Worker processes started by start_celery_worker and still running, with the queues
# they consume: what `_no_task_left_running` waits for.
_LIVE_WORKERS: dict[subprocess.Popen[bytes], tuple[str, ...]] = {}
DEFAULT_QUEUE = "celery"
TASKS_DRAIN_SECONDS = 120.0


def _uses_db(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & _DB_FIXTURES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "celery_worker_process" in fixtures:
            item.add_marker(pytest.mark.worker)
        if item.get_closest_marker("worker"):
            item.add_marker(pytest.mark.services)  # a worker needs PostgreSQL and Redis
        special = item.get_closest_marker("services") or item.get_closest_marker("browser")
        if not _uses_db(item) and not special:
            item.add_marker(pytest.mark.core)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "core: touches no database (added automatically)")
    config.addinivalue_line(
        "markers", "production: runs against the production site (tests/browser/production)"
    )


# A test-only hasher: Django's PBKDF2 costs about 0.24 s of CPU per password, and the
# suite makes about a thousand users. test_hostile_input's lockout test logs in through
# the production hasher (PRODUCTION_PASSWORD_HASHERS) so that one is still exercised.
TEST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _test_settings(worker_id: str) -> Iterator[None]:
    """Settings of the test session: the fast hasher, and under pytest-xdist a Redis
    database of each worker's own (gw0 uses 1, gw1 uses 2, ...), so that parallel
    workers, whose test databases hand out the same primary keys, never read each
    other's cached standings or throttle counts. The broker stays on database 0: only
    `worker` tests use it, and they run in the serial pass."""
    from django.conf import settings
    from django.test import override_settings

    changes: dict[str, Any] = {"PASSWORD_HASHERS": TEST_PASSWORD_HASHERS}
    if worker_id != "master" and settings.CACHES["default"].get("LOCATION", "").startswith(
        "redis://"
    ):
        number = int(worker_id.removeprefix("gw")) + 1
        caches = {alias: dict(cache) for alias, cache in settings.CACHES.items()}
        base = caches["default"]["LOCATION"].rsplit("/", 1)[0]
        caches["default"]["LOCATION"] = f"{base}/{number}"
        changes["CACHES"] = caches
    with override_settings(**changes):
        yield


# The same examples on every run (derived from each test, not from a random seed), so the
# test command gives the same answer on every machine; HYPOTHESIS_PROFILE=explore
# searches anew with random examples.
hypothesis_settings.register_profile("agon", derandomize=True, database=None)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "agon"))


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A German page request leaves German active in this thread (the locale middleware
    activates the request's language and nothing resets it): every test starts and ends
    in the site's default language, so a message a test compares is never translated
    by the test that ran before it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_round_read_kept_from_another_test() -> Iterator[None]:
    """Each test starts with no round's games read kept (tournaments/core/poll.py keeps
    them by the round's id, which a rolled-back test hands out again)."""
    from tournaments.core.poll import forget_recent_games_states

    forget_recent_games_states()
    yield


@pytest.fixture(autouse=True)
def _eager_tasks_unless_worker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside `worker` tests, tasks run in-process even when REDIS_URL is set, so the
    same test gives the same answer on both passes and no task outlives its test (a task
    left in Redis would run later, against another test's data, and could hold locks
    while that test's database is flushed)."""
    from config.celery import app

    if request.node.get_closest_marker("worker"):
        yield
        return
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


def _broker() -> Any:
    """A client of the broker's Redis (kombu's Redis transport: one list per queue, and
    the hash `unacked` holding every delivered message until the worker acknowledges it,
    which with acks_late is after the task has finished)."""
    import redis

    return redis.Redis.from_url(os.environ["REDIS_URL"])


def _tasks_pending(client: Any) -> dict[str, int]:
    """Messages per queue that are waiting or running (delivered, not yet acknowledged)."""
    pending: dict[str, int] = {}
    for key in client.scan_iter(count=1000):
        if client.type(key) == b"list":
            length = client.llen(key)
            if length:
                name = key.decode().split("\x06\x16")[0]  # priority sub-queues
                pending[name] = pending.get(name, 0) + length
    for raw in client.hvals("unacked"):
        queue = json.loads(raw)[2] or DEFAULT_QUEUE  # [message, exchange, routing key]
        pending[queue] = pending.get(queue, 0) + 1
    return pending


def _purge(client: Any, queues: set[str], *, running: bool = True) -> None:
    """Drop the waiting messages of `queues`, and with `running` their unacknowledged
    ones too (only right for queues no live worker consumes)."""
    for key in list(client.scan_iter(count=1000)):
        if client.type(key) == b"list" and key.decode().split("\x06\x16")[0] in queues:
            client.delete(key)
    if not running:
        return
    for tag, raw in client.hgetall("unacked").items():
        if (json.loads(raw)[2] or DEFAULT_QUEUE) in queues:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


def wait_for_tasks_done(seconds: float = TASKS_DRAIN_SECONDS) -> None:
    """Return once no queue holds a message and no worker runs a task, seen twice 50 ms
    apart (a message is briefly in neither place between its pop and its entry in
    `unacked`). Messages of queues that no live worker consumes (a killed worker's
    unacknowledged task, or tasks queued with no worker running) can never finish
    here: they are purged, since they belong to a test that is over. Fails if the
    workers are still busy after `seconds` (purging what waits; a running task cannot
    be taken back)."""
    client = _broker()
    deadline = time.monotonic() + seconds
    quiet_once = False
    while True:
        pending = _tasks_pending(client)
        consumed = {
            q for proc, queues in _LIVE_WORKERS.items() if proc.poll() is None for q in queues
        }
        orphans = set(pending) - consumed
        if orphans:
            _purge(client, orphans)
            pending = {q: n for q, n in pending.items() if q not in orphans}
        if not pending:
            if quiet_once:
                return
            quiet_once = True
        else:
            quiet_once = False
        if time.monotonic() > deadline:
            _purge(client, set(pending), running=False)
            pytest.fail(
                f"Celery tasks still queued or running {seconds:.0f} s after the test "
                f"(per queue: {pending}); the waiting ones were purged. A test must wait "
                "for the work it queues before it ends."
            )
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def _no_task_left_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """On the real servers, no database test ends (and so has its tables flushed or
    rolled back) while a Celery task could still read or write them: a worker reading
    while TRUNCATE runs deadlocks the flush. Set up after the database fixture, so it
    is torn down before it."""
    # Only a `worker` test sends tasks to a real worker: every other test runs its tasks
    # in-process (`_eager_tasks_unless_worker`), so nothing of it can still be running.
    node = request.node
    flushed = node.get_closest_marker("django_db") or set(request.fixturenames) & _FLUSHED
    if not os.environ.get("REDIS_URL") or not flushed or not node.get_closest_marker("worker"):
        yield
        return
    # pytest-django's own fixture behind `django_db`, `db` and `transactional_db`:
    # requesting it here orders this fixture's teardown before the flush.
    request.getfixturevalue("_django_db_helper")
    yield
    wait_for_tasks_done()


def _database_url(settings_dict: dict[str, Any]) -> str:
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


def start_celery_worker(
    log_name: str = "celery-test-worker.log",
    queues: str | None = None,
    *,
    beat: bool = False,
    redis_url: str | None = None,
) -> subprocess.Popen[bytes]:
    """A real `celery worker` process on the test database and the Redis of REDIS_URL
    (or `redis_url`), consuming ``queues`` if given, answering pings; the caller stops
    it. With `beat`, it also runs Celery beat with the rating sweep every second.
    Needs the test database to exist."""
    from django.db import connection

    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.fail(
            "services tests need DATABASE_URL (PostgreSQL) and REDIS_URL: run config/bin/test"
        )
    env = dict(os.environ, DATABASE_URL=_database_url(connection.settings_dict))
    if redis_url:
        env["REDIS_URL"] = redis_url
    if beat:
        env.update(RATING_SWEEP_SECONDS="1", RATING_SWEEP_GRACE_SECONDS="1")
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
            *(["--beat", f"--schedule={ROOT / 'var' / (log_name + '.beat')}"] if beat else []),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()  # the child keeps its own descriptor
    _LIVE_WORKERS[proc] = tuple((queues or DEFAULT_QUEUE).split(","))
    from config.celery import app

    deadline = time.monotonic() + 60
    if redis_url:  # pinged through its own broker
        from celery import Celery

        app = Celery(broker=redis_url, set_as_current=False)  # tasks keep our app
    while not app.control.ping(timeout=0.5):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the celery worker did not start; see var/{log_name}")
    return proc


def stop_celery_worker(proc: subprocess.Popen[bytes]) -> None:
    _LIVE_WORKERS.pop(proc, None)
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


class AsgiServer:
    """The site as production serves it (config/asgi.py: pages and the live tables'
    sockets) under uvicorn, in a thread of the test process, on the test database; the
    channel layer is the one the settings name (Redis on the real servers)."""

    def __init__(self) -> None:
        import uvicorn
        from channels.layers import channel_layers
        from channels.routing import ProtocolTypeRouter
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from config.asgi import django_application, websocket_application

        # A channel layer belongs to one event loop: each server (a loop of its own) gets
        # fresh layers, or the last test's loop still holds the layer's receive.
        channel_layers.backends.clear()
        app = ProtocolTypeRouter(
            {
                "http": ASGIStaticFilesHandler(django_application),
                "websocket": websocket_application(),
            }
        )
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        config = uvicorn.Config(
            app,
            log_level="warning",
            lifespan="off",
            ws="websockets-sansio",
            ws_per_message_deflate=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=lambda: asyncio.run(self.server.serve(sockets=[self._socket])), daemon=True
        )
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                return
            time.sleep(0.05)
        pytest.fail("the ASGI server did not start within 10 s")

    def stop(self) -> None:
        from channels.layers import channel_layers

        self.server.should_exit = True
        self.thread.join(timeout=15)
        channel_layers.backends.clear()


@pytest.fixture
def asgi_server(transactional_db: None, settings: Any) -> Iterator[AsgiServer]:
    """A production-style ASGI server for the test (live tables: WebSockets)."""
    from django.db import connections

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    # Each request closes its connection when it ends (as the live server's do): the
    # server's threads must hold none when the test's tables are flushed.
    settings_dict = connections["default"].settings_dict
    before = settings_dict.get("CONN_MAX_AGE", 0)
    settings_dict["CONN_MAX_AGE"] = 0
    server = AsgiServer()
    try:
        yield server
    finally:
        server.stop()
        settings_dict["CONN_MAX_AGE"] = before
