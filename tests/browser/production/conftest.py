"""The production pass: the site served as docs/operations.md describes it, and the tests
of this folder run against it.

Started once per session, as subprocesses on free loopback ports, on the test database
and the Redis of REDIS_URL:
- static files collected (`collectstatic`) into a temporary STATIC_ROOT under the
  manifest storage (hashed names, compressed copies), as DEBUG=false chooses;
- the web process, `gunicorn config.wsgi`, and the live process, `gunicorn
  config.asgi:application -k config.asgi_worker.LiveTablesWorker --reuse-port`, with
  DEBUG=false, a SECRET_KEY, ALLOWED_HOSTS, the Redis channel layer of
  config/live_layer.py;
- nginx in front, sending /ws/ to the live process and the rest to the web process.

Where it differs from a real site, and why: plain http on 127.0.0.1 (SECURE_SSL_REDIRECT
off; Chromium keeps cookies marked Secure from http://127.0.0.1, a secure context);
the proxy passes the Host with its port (`$http_host`: on a port other than 80/443 the
CSRF origin check compares it with the page's Origin); the servers keep no database
connection between requests (settings.py here); the SECRET_KEY is the test process's,
so the sessions its tests make (`login`) are valid on the servers; no Celery worker or
beat (the tests here wait for no rating job; the sweep is tested in
tests/ratings/test_rating_sweep.py).

`live_server` and `asgi_server` are this site here, so the browser tests of
tests/browser imported into this folder run against it unchanged.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
APPLICATION_NAME = "agon-production-pass"

NGINX_CONF = """\
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log {dir}/nginx-access.log;
    client_body_temp_path {dir}/nginx-body;
    proxy_temp_path {dir}/nginx-proxy;
    fastcgi_temp_path {dir}/nginx-fastcgi;
    uwsgi_temp_path {dir}/nginx-uwsgi;
    scgi_temp_path {dir}/nginx-scgi;
    server {{
        listen 127.0.0.1:{port};
        # The venue without signal (tests/browser/test_offline.py): while this file exists
        # every request is dropped unanswered (444), as a dead network drops it.
        if (-f {dir}/no-signal) {{ return 444; }}
        location /ws/ {{
            proxy_pass http://127.0.0.1:{live};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_set_header Host $http_host;
            proxy_read_timeout 1h;
        }}
        location / {{
            proxy_pass http://127.0.0.1:{web};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ProductionSite:
    """The running site: `url` (the front), `get`, the signal switch of the offline tests
    (`drop_requests`, `last_request`) and `idle`."""

    thread = None  # tests/browser/conftest.py asks a live server for its request threads

    class _live_server_modified_settings:  # noqa: N801 - pytest-django enables a live server's
        enable = disable = staticmethod(lambda: None)

    def __init__(self, database_url: str, redis_url: str, secret_key: str) -> None:
        # Readable by nginx's workers (nobody when it is started as root).
        self.dir = Path(tempfile.mkdtemp(prefix="agon-production-"))
        self.dir.chmod(0o755)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.browser.production.settings",
            "DEBUG": "false",
            "SECRET_KEY": secret_key,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "STATIC_ROOT": str(self.dir / "static"),
            "DATABASE_URL": f"{database_url}?application_name={APPLICATION_NAME}",
            "REDIS_URL": redis_url,
        }
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def _start(self, name: str, *command: str) -> None:
        log = open(self.dir / f"{name}.log", "ab")  # noqa: SIM115 - the child writes to it
        self.processes.append(
            subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        )
        log.close()

    def start(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        web, live = _free_port(), _free_port()
        # No control socket: every gunicorn on the machine would share one path.
        gunicorn = (sys.executable, "-m", "gunicorn", "--no-control-socket")
        self._start("web", *gunicorn, "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{web}")
        self._start(
            "live",
            *gunicorn,
            "config.asgi:application",
            "-k",
            "config.asgi_worker.LiveTablesWorker",
            "--workers",
            "2",
            "--reuse-port",
            "--bind",
            f"127.0.0.1:{live}",
        )
        conf = self.dir / "nginx.conf"
        conf.write_text(NGINX_CONF.format(dir=self.dir, port=self.port, web=web, live=live))
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self._start("nginx", nginx, "-p", str(self.dir), "-c", str(conf), "-g", "daemon off;")
        # Up once both processes answer through the front (a loaded machine takes tens
        # of seconds to boot the workers; gunicorn listens before they are ready).
        deadline = time.monotonic() + 180
        while not (self._answers(self.port, "/healthz") and self._answers(live, "/healthz")):
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                logs = self.logs()
                self.stop()
                pytest.fail(f"the production site did not start:\n{logs}")
            time.sleep(0.2)

    @staticmethod
    def _answers(port: int, path: str) -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request("GET", path)
            return connection.getresponse().status == 200
        except OSError:
            return False
        finally:
            connection.close()

    def logs(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
            for log in sorted(self.dir.glob("*.log"))
        )

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def get(self, path: str, cookies: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
        """GET `path` from the front, redirects not followed: status, headers, body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Accept-Encoding": "identity"}
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        try:
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            return answer.status, answer.headers, answer.read()
        finally:
            connection.close()

    def drop_requests(self, off: bool) -> None:
        flag = self.dir / "no-signal"
        if off:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)

    def last_request(self) -> float:
        """When the front last logged a request (answered or dropped), on time.monotonic's
        clock."""
        log = self.dir / "nginx-access.log"
        if not log.exists():
            return 0.0
        return time.monotonic() - (time.time() - log.stat().st_mtime)

    def idle(self, seconds: float = 15) -> None:
        """Wait until no server process holds a database connection: a request still
        running while the test's tables are emptied could deadlock the TRUNCATE."""
        from django.db import connection

        deadline = time.monotonic() + seconds
        with connection.cursor() as cursor:
            while True:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                    [APPLICATION_NAME],
                )
                if cursor.fetchone()[0] == 0:
                    return
                if time.monotonic() > deadline:
                    pytest.fail(f"the production site still used the database {seconds} s on")
                time.sleep(0.05)


@pytest.fixture(scope="session")
def production_site(django_db_setup: None, django_db_blocker: Any) -> Iterator[ProductionSite]:
    from django.conf import settings
    from django.db import connection

    from tests.conftest import _database_url

    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.fail("the production pass needs PostgreSQL and Redis: run config/bin/test")
    site = ProductionSite(
        _database_url(connection.settings_dict), os.environ["REDIS_URL"], settings.SECRET_KEY
    )
    site.start()
    try:
        yield site
    finally:
        site.stop()


@pytest.fixture
def live_server(transactional_db: None, production_site: ProductionSite) -> Iterator[Any]:
    """The production site in place of Django's live server."""
    yield production_site
    production_site.drop_requests(False)
    # pytest shows this only for a failed test: the ends of the servers' logs.
    print(production_site.logs())
    production_site.idle()


@pytest.fixture
def asgi_server(live_server: ProductionSite) -> ProductionSite:
    """The production site (its live process behind the front) in place of uvicorn."""
    return live_server
