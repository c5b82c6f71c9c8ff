"""The venue mode (`bash config/bin/venue`, docs/venue.md): the command itself, started in a
subprocess on a free port with a database and static files of the test's own, serves as
an evening needs it (DEBUG off, the site's own pages and static files, the live tables'
socket, SQLite in WAL mode, no demo), prints the phones' address with its QR code, and a
restart loses neither a login nor the data. Its organiser's first account and the
addresses it finds are tested in-process."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
import requests
import segno
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from config import venue
from config.env import ConfigError

pytestmark = pytest.mark.embedded

ROOT = Path(__file__).resolve().parents[1]
ORGANISER, PASSWORD = "organiser", "a-long-evening-at-the-club"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Venue:
    """`bash config/bin/venue` as the organiser starts it, bound to every address on a free
    port, its database and static files in the test's directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.database = directory / "venue.sqlite3"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **{
                k: v
                for k, v in os.environ.items()
                if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE"}
            },
            # Set in the shell: the command must leave it (one process, tasks in it).
            "REDIS_URL": "redis://127.0.0.1:1/0",
            "DATABASE_URL": f"sqlite:///{self.database}",
            "STATIC_ROOT": str(directory / "static"),
            "AGON_VENUE_ADDR": f"0.0.0.0:{self.port}",
            "AGON_VENUE_ADMIN": ORGANISER,
            "AGON_VENUE_PASSWORD": PASSWORD,
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def command(self, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "config/bin/venue", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            **kwargs,  # type: ignore[call-overload]
        )

    def start(self) -> str:
        """Start and wait until it answers; returns what it printed up to then."""
        self.starts += 1
        log = self.directory / f"venue-{self.starts}.log"
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                ["bash", "config/bin/venue"],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 180
        while True:
            try:
                if requests.get(f"{self.url}/healthz", timeout=10).status_code == 200:
                    return log.read_text()
            except requests.ConnectionError:
                pass
            assert self.process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)

    def stop(self) -> None:
        """Ctrl-C, as the organiser stops it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def the_venue(tmp_path: Path):
    site = Venue(tmp_path)
    try:
        yield site
    finally:
        site.stop()


CELL = re.compile(r"\x1b\[(\d+);(\d+)m\u2580")


def _printed_qr(printed: str) -> list[list[bool]]:
    """The QR code as the terminal shows it, read back into modules (True: dark): each cell
    an upper half block, its foreground the upper module, its background the lower."""
    rows: list[list[bool]] = []
    for line in printed.splitlines():
        cells = CELL.findall(line)
        if cells:
            rows.append([fg == "30" for fg, _ in cells])
            rows.append([bg == "40" for _, bg in cells])
    return rows


def _modules(url: str) -> list[list[bool]]:
    """The modules of the QR code of `url` with its quiet zone (4), and the light half-row
    the terminal's last line holds under an odd count of rows."""
    rows = [[bool(m) for m in row] for row in segno.make(url, error="m").matrix_iter(border=4)]
    return rows + [[False] * len(rows[0])] * (len(rows) % 2)


def _rows(database: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute(sql).fetchall()


def _log_in(session: requests.Session, url: str) -> None:
    form = session.get(f"{url}/accounts/login/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
    assert token, form.text[:500]
    answer = session.post(
        f"{url}/accounts/login/",
        data={"csrfmiddlewaretoken": token[1], "username": ORGANISER, "password": PASSWORD},
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 302, answer.text[:500]
    # Kept by a phone's browser over plain http: not marked Secure.
    assert "secure" not in answer.headers["Set-Cookie"].lower()


def _write(session: requests.Session, url: str, path: str, body: dict[str, object]) -> dict:
    answer = session.post(
        f"{url}{path}",
        json=body,
        headers={"X-CSRFToken": session.cookies["csrftoken"]},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _socket_stays_open(socket_url: str, origin: str, cookie: str) -> None:
    """The socket opens and is still open a second later (nothing to hear: no play)."""
    with connect(socket_url, origin=origin, additional_headers={"Cookie": cookie}) as live:
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            live.recv(timeout=1)
        assert time.monotonic() - started >= 1


def test_the_venue_serves_an_evening_and_a_restart_loses_no_login_and_no_data(the_venue):
    printed = the_venue.start()
    url, port = the_venue.url, the_venue.port

    # The phones' address and its QR code, as the terminal shows them.
    addresses = venue.lan_addresses()
    assert addresses, "this machine has no non-loopback IPv4 address to test with"
    phones = f"http://{addresses[0]}:{port}/"
    assert phones in printed, printed
    assert _printed_qr(printed) == _modules(phones), printed
    assert str(the_venue.database) in printed
    # No demo: an evening starts empty but for its organiser.
    assert _rows(the_venue.database, "SELECT count(*) FROM tournaments_player") == [(0,)]
    assert _rows(the_venue.database, "SELECT username FROM auth_user") == [(ORGANISER,)]
    assert _rows(the_venue.database, "PRAGMA journal_mode") == [("wal",)]

    # DEBUG off: the site's own 404 page, not Django's technical one.
    home = requests.get(f"{url}/", timeout=30)
    assert home.status_code == 200
    missing = requests.get(f"{url}/no-such-page/", timeout=30)
    assert missing.status_code == 404
    assert "URLconf" not in missing.text and "DEBUG = True" not in missing.text
    # A static file the page names, by its hashed name (the manifest: collected, DEBUG off),
    # served by the same process.
    stylesheet = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', home.text)
    assert stylesheet, home.text[:1000]
    css = requests.get(f"{url}{stylesheet[1]}", timeout=30)
    assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
    # The phones ask by the laptop's address; a stranger's name is refused.
    host = f"{addresses[0]}:{port}"
    assert requests.get(f"{url}/", headers={"Host": host}, timeout=30).status_code == 200
    foreign = requests.get(f"{url}/", headers={"Host": "evil.example"}, timeout=30)
    assert foreign.status_code == 400

    organiser = requests.Session()
    _log_in(organiser, url)
    club = _write(organiser, url, "/api/v1/clubs/", {"name": "Cellar Club", "slug": "cellar"})
    evening = _write(
        organiser,
        url,
        "/api/v1/tournaments/",
        {"club": club["slug"], "name": "Tuesday", "kind": "evening"},
    )
    # The live tables' socket opens (the organiser's session, the page's origin) and stays.
    socket_url = f"ws://127.0.0.1:{port}/ws/t/{evening['slug']}/live/"
    cookie = f"sessionid={organiser.cookies['sessionid']}"
    _socket_stays_open(socket_url, url, cookie)
    # A page of another site may not listen (its origin is none of the venue's names).
    with pytest.raises(InvalidStatus) as refused:
        connect(socket_url, origin="http://evil.example", additional_headers={"Cookie": cookie})
    assert refused.value.response.status_code == 403

    the_venue.stop()
    printed = the_venue.start()
    assert "Made the organiser" not in printed  # the account is made once

    # The session cookie of before the restart still logs in, and the data is there.
    assert organiser.get(f"{url}/admin/", allow_redirects=False, timeout=30).status_code == 200
    clubs = organiser.get(f"{url}/api/v1/clubs/", timeout=30).json()["results"]
    assert [c["slug"] for c in clubs] == [club["slug"]]
    again = organiser.get(f"{url}/api/v1/tournaments/{evening['slug']}/", timeout=30)
    assert again.status_code == 200 and again.json()["name"] == "Tuesday"
    _socket_stays_open(socket_url, url, cookie)

    # A copy taken while it serves holds what was written.
    copy = the_venue.directory / "backup" / "tuesday.sqlite3"
    backed = the_venue.command("backup", str(copy))
    assert backed.returncode == 0, backed.stderr
    assert _rows(copy, "SELECT name FROM tournaments_club") == [("Cellar Club",)]


@pytest.mark.django_db
def test_the_first_start_makes_the_organiser_from_the_environment_once(monkeypatch):
    from django.contrib.auth import get_user_model

    monkeypatch.setenv("AGON_VENUE_ADMIN", ORGANISER)
    monkeypatch.setenv("AGON_VENUE_PASSWORD", PASSWORD)
    out = io.StringIO()
    assert venue.ensure_organiser(out) == ORGANISER
    made = get_user_model().objects.get()
    assert made.is_superuser and made.check_password(PASSWORD)
    # Started again with other values: the account of the first start stays the only one.
    monkeypatch.setenv("AGON_VENUE_ADMIN", "someone-else")
    assert venue.ensure_organiser(io.StringIO()) == ORGANISER
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_a_first_start_nobody_watches_without_an_organiser_stops_naming_the_variables(
    monkeypatch,
):
    from django.contrib.auth import get_user_model

    monkeypatch.delenv("AGON_VENUE_ADMIN", raising=False)
    monkeypatch.delenv("AGON_VENUE_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO())  # not a terminal
    with pytest.raises(ConfigError, match="AGON_VENUE_ADMIN and AGON_VENUE_PASSWORD"):
        venue.ensure_organiser(io.StringIO())
    # A password anyone could guess is refused on a network the whole room shares.
    monkeypatch.setenv("AGON_VENUE_ADMIN", ORGANISER)
    monkeypatch.setenv("AGON_VENUE_PASSWORD", "12345678")
    with pytest.raises(ConfigError, match="AGON_VENUE_PASSWORD"):
        venue.ensure_organiser(io.StringIO())
    assert not get_user_model().objects.exists()


def test_the_phones_are_given_every_lan_address_and_none_for_a_loopback_binding(monkeypatch):
    monkeypatch.setattr(venue, "lan_addresses", lambda: ["192.168.1.20", "10.42.0.1"])
    assert venue.phone_urls("0.0.0.0", 8080) == [
        "http://192.168.1.20:8080/",
        "http://10.42.0.1:8080/",
    ]
    assert venue.phone_urls("192.168.1.20", 9000) == ["http://192.168.1.20:9000/"]
    assert venue.phone_urls("127.0.0.1", 8080) == []
    monkeypatch.setenv("AGON_VENUE_ADDR", "[::]:8443")
    assert venue.venue_addr() == ("::", 8443)
    monkeypatch.setenv("AGON_VENUE_ADDR", "8080")
    with pytest.raises(ConfigError, match="AGON_VENUE_ADDR"):
        venue.venue_addr()


def test_the_machines_addresses_are_ipv4_and_never_loopback():
    addresses = venue.lan_addresses()
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in addresses)
    assert len(addresses) == len(set(addresses))
