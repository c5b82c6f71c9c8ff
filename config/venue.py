"""The venue mode (`bash config/bin/venue`, docs/venue.md): the site on the organiser's
laptop for the room's Wi-Fi, one process for the whole evening.

`config/bin/venue` migrates and collects the static files, then runs
`python -m config.venue`: it makes the organiser's account on the first start, prints the
addresses for the phones with a QR code, and serves pages, API and the live tables'
sockets with uvicorn (the ASGI server production's live process runs). One process, so
the in-memory channel layer reaches every socket and Celery's tasks (ratings) run in it
(no Redis: `config/bin/venue` unsets it).

`python -m config.venue backup FILE` copies the database while the evening runs.

The network helpers here are read by config/settings.py (ALLOWED_HOSTS) before Django is
set up, so this module imports Django only inside the functions that need it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from .env import ConfigError, env_str

DEFAULT_ADDR = "0.0.0.0:8080"
# Any address outside the machine: "connecting" a UDP socket sends nothing, it only asks
# the kernel which of the machine's addresses its route to there leaves from (the
# Wi-Fi's, as a rule). A room without internet still has its router as the default route.
_ROUTE_PROBE = ("10.254.254.254", 1)


def venue_addr() -> tuple[str, int]:
    """AGON_VENUE_ADDR as (host, port); `[::]:8080` and `0.0.0.0:8080` both read."""
    raw = env_str("AGON_VENUE_ADDR", DEFAULT_ADDR)
    host, sep, port = raw.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"AGON_VENUE_ADDR={raw!r} is not host:port, e.g. {DEFAULT_ADDR}")
    return host.strip("[]") or "0.0.0.0", int(port)


def _ipv4(text: str) -> ipaddress.IPv4Address | None:
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(text.strip())
        if isinstance(address, ipaddress.IPv4Address):
            return address
    return None


def lan_addresses() -> list[str]:
    """Every IPv4 address of this machine that a phone could reach: not loopback, the
    one the default route leaves from first. Without extra packages: the UDP probe,
    then `hostname -I` (Linux), then what the machine's own name resolves to (macOS)."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_ROUTE_PROBE)
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        listed = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False
        )
        found += listed.stdout.split()
    with contextlib.suppress(OSError):
        found += [
            str(info[4][0])
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        ]
    addresses: list[str] = []
    for text in found:
        address = _ipv4(text)
        usable = address and not address.is_loopback and not address.is_unspecified
        if usable and str(address) not in addresses:
            addresses.append(str(address))
    return addresses


def venue_hosts() -> list[str]:
    """The names a page of the venue may be asked for by (ALLOWED_HOSTS, and the sockets'
    Origin check): this laptop itself, its LAN addresses, its name (and `name.local`, as
    the room's router or mDNS may resolve it), and the address it is bound to."""
    name = socket.gethostname()
    hosts = ["localhost", "127.0.0.1", "[::1]", name, f"{name}.local", *lan_addresses()]
    bound = _ipv4(venue_addr()[0])
    if bound is not None and not bound.is_unspecified:
        hosts.append(str(bound))
    return list(dict.fromkeys(hosts))


def phone_urls(host: str, port: int) -> list[str]:
    """The addresses to give the phones: every LAN address when bound to all of them,
    else the one bound (none for loopback: then only this laptop reaches it)."""
    bound = _ipv4(host)
    if host in {"0.0.0.0", "::", ""}:
        hosts = lan_addresses()
    elif bound is not None and bound.is_loopback:
        hosts = []
    else:
        hosts = [host]
    return [f"http://{h}:{port}/" for h in hosts]


def ensure_organiser(out: TextIO) -> str:
    """The organiser's account, made on the first start: a venue starts empty (no demo, no
    known password on the room's network). From AGON_VENUE_ADMIN and AGON_VENUE_PASSWORD
    when set (a start that nobody watches: a service, the tests), else asked for at the
    terminal; without either the start stops with one line saying so. Returns the name."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError
    from django.core.management import call_command

    users = get_user_model()
    existing = users.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if existing is not None:
        return existing.get_username()
    name, password = env_str("AGON_VENUE_ADMIN"), os.environ.get("AGON_VENUE_PASSWORD", "")
    if name and password:
        try:
            validate_password(password, users(username=name))
        except ValidationError as refused:
            raise ConfigError("AGON_VENUE_PASSWORD: " + " ".join(refused.messages)) from None
        users.objects.create_superuser(name, "", password)
        out.write(f"Made the organiser's account {name!r} (AGON_VENUE_ADMIN).\n")
        return name
    if not sys.stdin.isatty():
        raise ConfigError(
            "the venue has no organiser yet: start it once at a terminal (it asks for a "
            "name and a password), or set AGON_VENUE_ADMIN and AGON_VENUE_PASSWORD"
        )
    out.write("First start: the organiser's account (it runs the evening; no e-mail needed).\n")
    call_command("createsuperuser", interactive=True, email="", stdout=out)
    made = users.objects.filter(is_superuser=True).order_by("-pk").first()
    if made is None:
        raise ConfigError("no organiser's account was made")
    return str(made.get_username())


# A QR code's module as ANSI colours (foreground, background): dark modules black, light
# ones bright white, whatever the terminal's own colours. segno's terminal output draws
# light modules in the terminal's reverse video and dark ones in its background, so on a
# light terminal it came out inverted, which some phones' cameras do not read.
_DARK, _LIGHT = (30, 40), (97, 107)
HALF_BLOCK = "\u2580"  # upper half: its foreground is the upper module, its background the lower


def qr_code(url: str, out: TextIO) -> None:
    """The address as a QR code in the terminal, with the quiet zone around it: two rows of
    modules per line (a terminal's cell is about twice as high as wide, so each module is
    square), or one per line in two spaces where the terminal cannot print the block."""
    import segno

    rows = [[bool(m) for m in row] for row in segno.make(url, error="m").matrix_iter(border=4)]
    if "utf" not in (getattr(out, "encoding", None) or "utf-8").lower():
        for row in rows:
            out.write("".join(f"\x1b[{(_DARK if m else _LIGHT)[1]}m  " for m in row) + "\x1b[0m\n")
        return
    rows.append([False] * len(rows[0]))  # a light half-row under an odd count of rows
    for top, bottom in zip(rows[::2], rows[1::2], strict=False):
        cells = (
            f"\x1b[{(_DARK if t else _LIGHT)[0]};{(_DARK if b else _LIGHT)[1]}m{HALF_BLOCK}"
            for t, b in zip(top, bottom, strict=True)
        )
        out.write("".join(cells) + "\x1b[0m\n")


def banner(host: str, port: int, organiser: str, database: str, out: TextIO) -> None:
    urls = phone_urls(host, port)
    out.write("\nAgon at the venue: one process, DEBUG off (Ctrl-C stops; a restart keeps all).\n")
    if urls:
        out.write(f"  Phones and the projector, on the room's Wi-Fi:  {urls[0]}\n")
        qr_code(urls[0], out)
        for other in urls[1:]:
            out.write(f"  Also on this laptop's other network:  {other}\n")
    elif host in {"0.0.0.0", "::", ""}:
        out.write(
            "  No network address found: join the room's Wi-Fi (or open this laptop's\n"
            "  hotspot) and start again to get the phones' address and its QR code.\n"
        )
    else:
        out.write(f"  Bound to {host}: only this laptop reaches it (AGON_VENUE_ADDR).\n")
    local = "127.0.0.1" if host in {"0.0.0.0", "::", ""} or _ipv4(host) else host
    out.write(f"  This laptop:  http://{local}:{port}/  (organiser: {organiser})\n")
    out.write(f"  Data:  {database}  (copy while running: bash config/bin/venue backup FILE)\n\n")
    out.flush()


def backup(target: Path, database: Path) -> None:
    """A consistent copy of the venue's database, safe while it serves (SQLite's online
    backup: a plain copy of the file alone misses what is still in its -wal file)."""
    if not database.exists():
        raise ConfigError(f"no venue database at {database} yet")
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(database)
    copy = sqlite3.connect(target)
    try:
        with copy:
            source.backup(copy)
    finally:
        copy.close()
        source.close()


def push_loop(every: float) -> None:
    """Publish the events of a club linked to its site (docs/venue.md, "The link"), in a
    thread of the one process: pushes what the site has not acknowledged, backs off
    while there is no link, and does nothing until a club is linked."""
    import logging
    import threading

    from django.db import close_old_connections

    from tournaments.core.actor import Actor
    from tournaments.link.services import pushes_due

    log = logging.getLogger("tournaments.link")

    def run() -> None:
        stop = threading.Event()
        while not stop.wait(every):
            try:
                for slug, outcome in pushes_due(by=Actor.command()):
                    if outcome.state == "failed":
                        log.warning("push of %s: %s", slug, outcome.message)
            except Exception:  # noqa: BLE001 - the loop outlives any one push's fault
                log.exception("the push loop failed once; it tries again")
            finally:
                close_old_connections()

    threading.Thread(target=run, name="venue-push", daemon=True).start()


def main(argv: list[str]) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.conf import settings

    database = settings.DATABASES["default"]
    if argv[:1] == ["backup"]:
        if len(argv) != 2 or database["ENGINE"] != "django.db.backends.sqlite3":
            raise ConfigError("usage: bash config/bin/venue backup FILE (an SQLite venue)")
        backup(Path(argv[1]), Path(database["NAME"]))
        print(f"Copied {database['NAME']} to {argv[1]}")
        return
    if argv:
        raise ConfigError(f"unknown arguments {argv}: bash config/bin/venue [backup FILE]")

    import uvicorn

    host, port = venue_addr()
    organiser = ensure_organiser(sys.stdout)
    banner(host, port, organiser, str(database["NAME"]), sys.stdout)
    push_loop(float(env_str("AGON_VENUE_PUSH_SECONDS", "5")))
    uvicorn.run(
        "config.asgi:application",
        host=host,
        port=port,
        # Django has no lifespan events; "auto" would log that it found none.
        lifespan="off",
        # As production's live process (config/asgi_worker.py): no compression of the
        # small ply messages, and pages send nothing up the socket.
        ws_per_message_deflate=False,
        ws_max_size=4096,
        # No line per request: sixty phones polling would scroll the addresses and the QR
        # code out of sight within seconds. Errors are still printed.
        access_log=False,
        log_level=env_str("LOG_LEVEL", "INFO").lower(),
        # Ctrl-C: the sockets are closed (their pages poll and reconnect) and a request
        # still running is given this long to finish its write.
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    from .startup import or_exit

    or_exit(lambda: main(sys.argv[1:]))
