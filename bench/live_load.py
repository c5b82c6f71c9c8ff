"""Live tables under load: tables recording ply by ply while spectators watch.

Production-style, the processes as docs/operations.md and the README ("Production-style
deployment") lay them out: the plies (and the recording boards) go to the web process,
gunicorn's sync workers serving config.wsgi (`--web-workers`, 2 by default: the
machine's two cores); the sockets to the live process, gunicorn serving
config.asgi:application with `config.asgi_worker.LiveTablesWorker` (uvicorn without
per-message compression; `--workers`, 2). PostgreSQL and Redis from DATABASE_URL and
REDIS_URL (bench/live_load.sh starts private ones on loopback), DEBUG off, the project's
settings as they are. `--web-workers 0` sends the plies to the ASGI process too (one
process for everything, as the first runs had it). Builds a published
tournament through the services (3 × `--tables` players, one published round of
3-player tables), then, with asyncio:

- `--spectators` WebSocket connections on the tournament's live socket
  (`/ws/t/<slug>/live/`), spread evenly over the time, as a projector, round pages and
  game pages would hold them; each message's arrival time is noted. They are read by a
  small client of the bench's own (_LightSocket: frames parsed in data_received, no
  compression offered); `--library-client` reads them with the websockets library
  instead, offering compression as browsers do, at about five times the bench's CPU
  per message (at 1,000 spectators the bench itself then lagged on two cores);
- one recorder per table, sending the next ply of its table's random legal record
  (games.pentagame.playout.random_game) every `--every` seconds, staggered over the
  tables, as a player's link does (POST {ply, move, key} to the seat's record URL), for
  `--seconds`; a request that fails on the network is sent again with the same key.

Measured:

- for every ply and every spectator, the time from the recorder's answer (saved) to the
  spectator's first message showing that ply or a later one of the game (p50 / p95 /
  max; targets p95 <= 0.5 s, max <= 2 s); the messages a spectator never got (a later one
  showed the ply) and the (ply, spectator) pairs never seen at all;
- plies lost or duplicated: each game's stored record (Game.moves, Ply rows) against
  what its recorder sent and got accepted;
- memory per spectator connection: the socket process's RSS (gunicorn master + workers,
  from /proc) before and after the connections, divided by their number;
- CPU per ply: each server process's CPU time over the recording run / plies saved, the
  web (WSGI) and the live (ASGI) process apart, and PostgreSQL's and Redis's beside them
  when bench/live_load.sh names their directory;
- the layout actually run: the ASGI master's worker class (from its command line) and
  how many spectators' sockets negotiated permessage-deflate (they offer it, as browsers
  do; the live worker declines it);
- one ply in-process before the run: SQL statements, time and the message's size.

The answer reaches the recorder after the broadcast (the view computes it after the
commit's announcement), so "saved -> seen" is also given from the ply row's time (the
server's clock, just before the commit) and from the request's sending.

Diagnosis (docs/benchmarks.md, "Live tables under load"): `--sample` samples both
processes' Python stacks; `--web-workers 0` (all on ASGI); `--deflate` (the live process
with uvicorn's stock worker, `uvicorn_worker.UvicornWorker`, which compresses every
message); `--no-deflate` (spectators do not even offer compression); and
`--layer-socket-timeout S`, an experiment on the server only through a settings module
written for the run (the project's files are not touched): the sockets' channel layer's
Redis read timeout (config/settings.py sets 30 s; redis-py's default of 5 s closed idle
sockets before 0c2abd9). The first runs' `--skip-close-old-connections` is gone: since
0c2abd9 the live consumer's `dispatch` sends a saved ply without Channels' hop itself.

Prints a small table and, last, one JSON line. Everything it starts is stopped at the
end; only 127.0.0.1 is used.

    bash bench/live_load.sh [--tables 60] [--spectators 300] [--every 10] [--seconds 120]
                            [--workers 2] [--web-workers 2] [--sample] [--deflate]
                            [--no-deflate] [--layer-socket-timeout S]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_load import HOST, free_port, wait_ready  # noqa: E402 - the same server set-up

CLOCK_TICK = os.sysconf("SC_CLK_TCK")
CSRF_SECRET = uuid.uuid4().hex  # 32 characters, as Django's cookie holds (an unmasked token)
# Issue 44: 1,000 spectators p95 <= 0.5 s from the saved ply, max <= 2 s, none unseen.
TARGET_P95_S = 0.5
TARGET_MAX_S = 2.0


# --- the tournament -----------------------------------------------------------------


@dataclass
class Table:
    number: int
    game: int
    urls: dict[int, str]  # seat position -> its link's record URL
    order: list[int]  # seat positions in moving order
    record: list[str]  # the random legal game it plays
    sent: list[str] = field(default_factory=list)  # plies the server accepted, in order
    answers: dict[int, float] = field(default_factory=dict)  # ply -> answer received
    sent_at: dict[int, float] = field(default_factory=dict)  # ply -> first request sent
    save_s: list[float] = field(default_factory=list)
    retries: int = 0
    refused: list[str] = field(default_factory=list)
    late: int = 0  # ticks that came while the previous ply was still being saved


def build(tables: int) -> dict[str, Any]:
    """A published tournament of 3 × `tables` players through the services: round 1
    paired (3-player tables) and published."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from games.pentagame.playout import random_game
    from tournaments.core.actor import Actor
    from tournaments.desk.services.clubs import club_create
    from tournaments.desk.services.entries import entries_paste
    from tournaments.desk.services.rounds import round_pair_next, round_publish
    from tournaments.desk.services.tournaments import tournament_create
    from tournaments.models import Game, Seat

    stamp = time.time_ns()
    staff = get_user_model().objects.create(username=f"live-{stamp}", is_staff=True)
    by = Actor.director(staff)
    club = club_create(name=f"Live bench {stamp}", slug=f"live-{stamp}", by=by)
    tournament = tournament_create(
        club=club,
        name=f"Live bench {stamp}",
        slug=f"live-bench-{stamp}",
        by=by,
        published=True,
        policy="prefer-triples",
        rounds_planned=3,
    )
    lines = "\n".join(
        f"Player {i + 1:04d}, {1500 + (i * 37) % 600 - 300}" for i in range(3 * tables)
    )
    entries_paste(tournament=tournament, text=lines, by=Actor.command())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    games = Game.objects.filter(table__round=round_, number=1).select_related("table")
    seats: dict[int, dict[int, str]] = {}
    for seat in Seat.objects.filter(round=round_):
        seats.setdefault(seat.table_id, {})[seat.position] = seat.report_token
    made = []
    for game in sorted(games, key=lambda g: g.table.number):
        tokens = seats[game.table_id]
        if len(tokens) != 3:
            raise SystemExit(f"table {game.table.number} has {len(tokens)} seats, not 3")
        made.append(
            Table(
                number=game.table.number,
                game=game.pk,
                urls={
                    p: reverse("games:record-token", args=[game.pk, token])
                    for p, token in tokens.items()
                },
                order=game.moving_order(3),
                record=random_game(3, seed=1000 + game.table.number, max_plies=400),
            )
        )
    if len(made) != tables:
        raise SystemExit(f"paired {len(made)} tables, not {tables}")
    spare = (
        Game.objects.filter(table__round=round_, number=2)
        .select_related("table")
        .order_by("-table__number")
        .first()
    )
    return {
        "tournament": tournament,
        "tables": made,
        "spare": spare,
        "spare_token": seats[spare.table_id][1] if spare else None,
    }


def profile_ply(game: Any, token: str, plies: int = 8, cprofile: bool = False) -> dict[str, Any]:
    """Plies of a game no recorder uses, posted in-process (Django's test client) before
    the server starts: SQL statements and time of one ply's request (its broadcast to a
    group nobody has joined yet included), the message's size and the answer's size."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.pentagame.playout import random_game
    from tournaments.results.selectors.table_state import game_live

    client = Client(HTTP_HOST=HOST)
    url = reverse("games:record-token", args=[game.pk, token])
    record = random_game(3, seed=7, max_plies=plies)
    times, counts, answer = [], [], 0
    profiler = None
    if cprofile:
        import cProfile

        profiler = cProfile.Profile()
    for n, move in enumerate(record, start=1):
        if profiler is not None and n == 2:
            profiler.enable()
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.post(
                url,
                json.dumps({"ply": n, "move": move, "key": f"profile-{n}"}),
                content_type="application/json",
            )
            times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.content[:300]
        counts.append(len(queries))
        answer = len(response.content)
    if profiler is not None:
        import pstats

        profiler.disable()
        print(f"cProfile of plies 2-{len(record)} in-process (cumulative):")
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(r"/(tournaments|games|config)/", 30)
        stats.sort_stats("tottime").print_stats(15)
    start = time.perf_counter()
    state = game_live(game_id=game.pk)
    live_ms = (time.perf_counter() - start) * 1000
    message = json.dumps({"game": state}).encode()
    return {
        "ply_ms_median": round(statistics.median(times[1:]) * 1000, 1),
        "ply_ms_first": round(times[0] * 1000, 1),
        "queries_per_ply": counts,
        "answer_bytes": answer,
        "message_bytes": len(message),
        "live_state_ms": round(live_ms, 1),
    }


# --- processes: CPU and memory from /proc -------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return sorted(found)


def cpu_seconds(pid: int, with_reaped: bool = True) -> float:
    """User + system CPU of a process (and of its children it has reaped)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if with_reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLOCK_TICK


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def socket_counts(pids: list[int], port: int) -> dict[int, int]:
    """Established TCP connections on the server's port held by each process."""
    established: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            parts = row.split()
            if parts[3] == "01" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                established.add(parts[9])
    counts = {}
    for pid in pids:
        n = 0
        try:
            for fd in os.scandir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(fd.path)
                except OSError:
                    continue
                if target.startswith("socket:[") and target[8:-1] in established:
                    n += 1
        except OSError:
            pass
        counts[pid] = n
    return counts


class Services:
    """The private PostgreSQL and Redis of bench/live_load.sh (LIVE_LOAD_SERVICES_DIR),
    for their CPU time beside the server's."""

    def __init__(self) -> None:
        self.dir = os.environ.get("LIVE_LOAD_SERVICES_DIR", "")
        self.postmaster = self.redis = None
        if self.dir:
            try:
                self.postmaster = int(Path(self.dir, "pg", "postmaster.pid").read_text().split()[0])
                self.redis = int(Path(self.dir, "redis.pid").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                pass

    def backends(self) -> int | None:
        """PostgreSQL's processes now (its own five or so and one per connection)."""
        return None if self.postmaster is None else len(children(self.postmaster))

    def cpu(self) -> dict[str, float]:
        if self.postmaster is None or self.redis is None:
            return {}
        pg = cpu_seconds(self.postmaster) + sum(
            cpu_seconds(c, with_reaped=False) for c in children(self.postmaster)
        )
        return {"postgres": pg, "redis": cpu_seconds(self.redis)}


# The server's settings when the bench changes something (a module written for the run).
SETTINGS = """from config.settings import *  # noqa: F403
{lines}
"""
# --layer-socket-timeout: the sockets' channel layer reads with this socket timeout
# (redis-py 8 reads with 5 s by default, as long as channels_redis's BZPOPMIN blocks on
# an idle channel).
LAYER_TIMEOUT = (
    'CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["socket_timeout"] = {timeout}  # noqa: F405'
)
# --sample: each worker samples its threads' Python stacks every 5 ms (wall clock) and
# writes them, folded, to LIVE_LOAD_SAMPLES.<pid> every few seconds.
SAMPLER = """
import collections as _c, os as _os, sys as _sys, threading as _t, time as _time


def _live_load_sampler():
    counts = _c.Counter()
    me = _t.get_ident()
    out = _os.environ["LIVE_LOAD_SAMPLES"] + "." + str(_os.getpid())
    n = 0
    while True:
        _time.sleep(0.005)
        names = {th.ident: th.name for th in _t.enumerate()}
        for tid, frame in _sys._current_frames().items():
            if tid == me:
                continue
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append(_os.path.basename(code.co_filename) + ":" + code.co_name)
                frame = frame.f_back
            counts[names.get(tid, "?").split("_")[0] + "|" + ";".join(reversed(stack))] += 1
        n += 1
        if n % 400 == 0:
            with open(out + ".tmp", "w") as f:
                f.writelines(f"{k} {v}\\n" for k, v in counts.items())
            _os.replace(out + ".tmp", out)


if _os.environ.get("LIVE_LOAD_SAMPLES"):
    _t.Thread(target=_live_load_sampler, daemon=True, name="live-load-sampler").start()
"""


# The live (socket) process's worker class as docs/operations.md names it, and uvicorn's
# stock one (`--deflate`: every message compressed, as the first runs had it).
LIVE_WORKER = "config.asgi_worker.LiveTablesWorker"
STOCK_WORKER = "uvicorn_worker.UvicornWorker"


class Server:
    """A gunicorn: `config.wsgi` with its default (sync) workers, as the web process runs,
    or `config.asgi:application` with `worker_class`."""

    def __init__(
        self,
        workers: int,
        log: Path,
        layer_timeout: str | None = None,
        sample: bool = False,
        wsgi: bool = False,
        worker_class: str = LIVE_WORKER,
        reuse_port: bool = True,
    ) -> None:
        self.port = free_port()
        env = os.environ.copy()
        lines = []
        if layer_timeout is not None:
            timeout = None if layer_timeout == "none" else float(layer_timeout)
            lines.append(LAYER_TIMEOUT.format(timeout=timeout))
        self.samples: Path | None = None
        if sample:
            lines.append(SAMPLER)
            self.samples = log.parent / f"samples-{log.stem}"
            env["LIVE_LOAD_SAMPLES"] = str(self.samples)
        self.overrides = bool(lines)
        if lines:
            module = f"live_load_settings_{log.stem}"
            (log.parent / f"{module}.py").write_text(SETTINGS.format(lines="\n".join(lines)))
            env["PYTHONPATH"] = f"{log.parent}{os.pathsep}{ROOT}"
            env["DJANGO_SETTINGS_MODULE"] = module
        # Every spectator connects from 127.0.0.1: the cap per address
        # (LIVE_SOCKETS_PER_ADDRESS, docs/operations.md) would close all but 20.
        env.setdefault("LIVE_SOCKETS_PER_ADDRESS", "1000000")
        self.log = open(log, "wb")  # noqa: SIM115
        self.logpath = log
        self.process = subprocess.Popen(
            [
                str(ROOT / ".venv" / "bin" / "gunicorn"),
                *(
                    ["config.wsgi"]  # gunicorn's default worker: sync
                    if wsgi
                    # Each live worker listens on a socket of its own (SO_REUSEPORT), so
                    # the kernel spreads the sockets evenly (docs/operations.md).
                    else [
                        "config.asgi:application",
                        "--worker-class",
                        worker_class,
                        *(["--reuse-port"] if reuse_port else []),
                    ]
                ),
                "--workers",
                str(workers),
                "--bind",
                f"{HOST}:{self.port}",
                "--backlog",
                "1024",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def pids(self) -> list[int]:
        return [self.process.pid, *children(self.process.pid)]

    def command(self) -> list[str]:
        """The master's command line, from /proc (what actually runs)."""
        try:
            raw = Path(f"/proc/{self.process.pid}/cmdline").read_bytes()
        except OSError:
            return []
        return [a.decode(errors="replace") for a in raw.split(b"\0") if a]

    def worker_class(self) -> str | None:
        args = self.command()
        for flag in ("--worker-class", "-k"):
            if flag in args[:-1]:
                return args[args.index(flag) + 1]
        return "sync" if args else None

    def workers(self) -> list[int]:
        return children(self.process.pid)

    def cpu(self) -> float:
        return sum(cpu_seconds(p) for p in self.pids())

    def rss_kib(self) -> int:
        return sum(rss_kib(p) for p in self.pids())

    def stop(self) -> str:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        if not self.log.closed:
            self.log.close()
        return self.logpath.read_text(errors="replace").strip()


# --- the load -----------------------------------------------------------------------


class Spectator:
    def __init__(self, number: int) -> None:
        self.number = number
        self.seen: dict[int, list[tuple[int, float]]] = {}  # game -> [(plies, arrival)]
        self.messages = 0
        self.bytes = 0
        self.connected_at: float | None = None
        self.error: str | None = None
        self.closed_early = False
        self.extensions: list[str] = []  # negotiated (permessage-deflate or none)


async def watch(
    spectator: Spectator, url: str, origin: str, stop: asyncio.Event, deflate: bool = True
) -> None:
    from websockets.asyncio.client import connect

    try:
        async with connect(
            url,
            origin=origin,
            proxy=None,
            open_timeout=30,
            max_size=2**22,
            max_queue=None,
            compression="deflate" if deflate else None,
        ) as ws:
            spectator.connected_at = time.monotonic()
            spectator.extensions = [e.name for e in ws.protocol.extensions]
            receiver = asyncio.ensure_future(_receive(spectator, ws))
            stopper = asyncio.ensure_future(stop.wait())
            done, _pending = await asyncio.wait(
                {receiver, stopper}, return_when=asyncio.FIRST_COMPLETED
            )
            if receiver in done:
                spectator.closed_early = True
                receiver.result()
            receiver.cancel()
            stopper.cancel()
    except Exception as exc:  # noqa: BLE001 - a refused or dropped socket is a finding
        spectator.error = f"{type(exc).__name__}: {exc}"[:200]


async def _receive(spectator: Spectator, ws: Any) -> None:
    async for message in ws:
        arrived = time.monotonic()
        spectator.messages += 1
        spectator.bytes += len(message)
        game = json.loads(message)["game"]
        spectator.seen.setdefault(game["game"], []).append((game["plies"], arrived))


class _LightSocket(asyncio.Protocol):
    """A spectator's WebSocket read frame by frame in data_received, without a library:
    the websockets client cost about 100 µs of the bench's CPU per message, so at 1,000
    spectators (6,000 messages a second) the bench itself was the bottleneck on two
    cores and its own lag was counted as the server's. The server's frames are unmasked
    and whole (no compression: the handshake offers none); a ping is answered, a close
    noted. Arrival is the time the bytes reached the process."""

    def __init__(self, spectator: Spectator, request: bytes, opened: asyncio.Future[None]) -> None:
        self.spectator = spectator
        self.request = request
        self.opened = opened
        self.ended: asyncio.Future[None] = opened.get_loop().create_future()
        self.buffer = bytearray()
        self.upgraded = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        arrived = time.monotonic()
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1")
            del self.buffer[: end + 4]
            status = head.split("\r\n", 1)[0]
            if " 101 " not in status + " ":
                self._end(f"InvalidStatus: {status}")
                return
            self.upgraded = True
            self.spectator.extensions = [
                line.split(":", 1)[1].strip().split(";")[0]
                for line in head.split("\r\n")
                if line.lower().startswith("sec-websocket-extensions:")
            ]
            if not self.opened.done():
                self.opened.set_result(None)
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, length, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start : start + length])
            del buffer[: start + length]
            if opcode == 1:
                spectator = self.spectator
                spectator.messages += 1
                spectator.bytes += length
                game = json.loads(payload)["game"]
                spectator.seen.setdefault(game["game"], []).append((game["plies"], arrived))
            elif opcode == 9:
                self._frame(10, payload)  # pong
            elif opcode == 8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                self._frame(8, payload[:2])
                self._end(f"ConnectionClosedError: received {code}", closed=True)
                return

    def _frame(self, opcode: int, payload: bytes) -> None:
        """A client frame: masked, as the protocol asks (a zero mask: the same bytes)."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + bytes(4) + payload)

    def close(self) -> None:
        """The bench's own close, at the end: not a finding."""
        self.ended.set_result(None)
        self._frame(8, (1000).to_bytes(2, "big"))
        if self.transport is not None:
            self.transport.close()

    def _end(self, error: str | None, closed: bool = False) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(error))
        elif not self.ended.done():
            if closed:
                self.spectator.closed_early = True
            self.spectator.error = self.spectator.error or error
            self.ended.set_result(None)
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(f"ConnectionLost: {exc}", closed=True)


async def watch_light(spectator: Spectator, port: int, path: str, stop: asyncio.Event) -> None:
    """As watch(), on _LightSocket (no compression offered)."""
    loop = asyncio.get_running_loop()
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://{HOST}:{port}\r\n\r\n"
    ).encode()
    opened: asyncio.Future[None] = loop.create_future()
    try:
        _transport, protocol = await asyncio.wait_for(
            loop.create_connection(lambda: _LightSocket(spectator, request, opened), HOST, port),
            30,
        )
        await asyncio.wait_for(opened, 30)
    except Exception as exc:  # noqa: BLE001 - a refused or dropped socket is a finding
        spectator.error = f"{type(exc).__name__}: {exc}"[:200]
        return
    spectator.connected_at = time.monotonic()
    stopper = asyncio.ensure_future(stop.wait())
    await asyncio.wait({stopper, protocol.ended}, return_when=asyncio.FIRST_COMPLETED)
    stopper.cancel()
    if not protocol.ended.done():
        protocol.close()


def post_ply(conn_box: list[Any], port: int, table: Table, number: int) -> tuple[int, Any]:
    """Send ply `number` of the table's record from its mover's link; the same key again
    after a network failure. Returns (status, answer)."""
    move = table.record[number - 1]
    path = table.urls[table.order[(number - 1) % 3]]
    body = json.dumps(
        {"ply": number, "move": move, "key": f"t{table.number}-{number}-{uuid.uuid4().hex[:8]}"}
    )
    headers = {
        "Host": HOST,
        "Content-Type": "application/json",
        "Cookie": f"csrftoken={CSRF_SECRET}",
        "X-CSRFToken": CSRF_SECRET,
    }
    table.sent_at.setdefault(number, time.monotonic())
    # The server closes a connection idle for its keep-alive (gunicorn's default, 2 s):
    # a ply every 10 s opens a new one, as a phone's would.
    if conn_box[0] is not None and time.monotonic() - conn_box[1] > 1.0:
        conn_box[0].close()
        conn_box[0] = None
    for attempt in range(4):
        if conn_box[0] is None:
            conn_box[0] = http.client.HTTPConnection(HOST, port, timeout=30)
        try:
            start = time.monotonic()
            conn_box[0].request("POST", path, body=body, headers=headers)
            response = conn_box[0].getresponse()
            data = response.read()
            answered = conn_box[1] = time.monotonic()
        except (OSError, http.client.HTTPException):
            conn_box[0].close()
            conn_box[0] = None
            table.retries += 1
            time.sleep(0.2 * (attempt + 1))
            continue
        if response.status == 200:
            table.answers[number] = answered
            table.save_s.append(answered - start)
            table.sent.append(move)
            return 200, json.loads(data)
        return response.status, data[:300].decode(errors="replace")
    return 0, "network failure after 4 attempts"


async def record(
    table: Table,
    port: int,
    pool: ThreadPoolExecutor,
    start: float,
    offset: float,
    every: float,
    until: float,
) -> None:
    loop = asyncio.get_running_loop()
    conn_box: list[Any] = [None, 0.0]  # the connection, when it last answered
    number = 0
    tick = start + offset
    while tick < until and number < len(table.record):
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
        number += 1
        status, answer = await loop.run_in_executor(pool, post_ply, conn_box, port, table, number)
        if status != 200:
            table.refused.append(f"ply {number}: {status} {answer}")
            break
        if len(answer["moves"]) != number:
            table.refused.append(f"ply {number}: the answer has {len(answer['moves'])} moves")
        if answer.get("status") != "in_progress":
            break  # the game is over
        tick += every
        if time.monotonic() > tick:
            table.late += 1
    if conn_box[0] is not None:
        conn_box[0].close()


async def run_load(
    args: argparse.Namespace, world: dict[str, Any], server: Server, web: Server | None
) -> dict[str, Any]:
    slug = world["tournament"].slug
    path = f"/ws/t/{slug}/live/"
    url = f"ws://{HOST}:{server.port}{path}"
    origin = f"http://{HOST}:{server.port}"
    tables: list[Table] = world["tables"]
    result: dict[str, Any] = {}

    # Warm every worker's socket path, then the baseline memory.
    warm_stop = asyncio.Event()
    warm = [Spectator(-i) for i in range(1, 4 * args.workers + 1)]
    warm_tasks = [asyncio.ensure_future(watch(s, url, origin, warm_stop)) for s in warm]
    await asyncio.sleep(2)
    warm_stop.set()
    await asyncio.gather(*warm_tasks)
    if any(s.error for s in warm):
        raise SystemExit(f"warm-up sockets failed: {[s.error for s in warm if s.error][:3]}")
    await asyncio.sleep(2)
    rss_before = server.rss_kib()
    result["rss_before_kib"] = rss_before

    # The spectators, spread over --connect-seconds.
    stop = asyncio.Event()
    spectators = [Spectator(i) for i in range(args.spectators)]
    tasks = []
    connect_start = time.monotonic()
    for i, s in enumerate(spectators):
        delay = args.connect_seconds * i / len(spectators)
        await asyncio.sleep(max(0.0, connect_start + delay - time.monotonic()))
        tasks.append(
            asyncio.ensure_future(
                watch(s, url, origin, stop, not args.no_deflate)
                if args.library_client
                else watch_light(s, server.port, path, stop)
            )
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(
        s.connected_at is None and s.error is None for s in spectators
    ):
        await asyncio.sleep(0.1)
    result["connect_s"] = round(time.monotonic() - connect_start, 2)
    await asyncio.sleep(5)
    rss_after = server.rss_kib()
    connected = sum(1 for s in spectators if s.connected_at is not None)
    result.update(
        rss_after_kib=rss_after,
        connected=connected,
        connect_errors=[s.error for s in spectators if s.error][:5],
        kib_per_connection=round((rss_after - rss_before) / max(1, connected), 1),
        connections_per_worker=list(socket_counts(server.workers(), server.port).values()),
        deflate_negotiated=sum(1 for s in spectators if "permessage-deflate" in s.extensions),
    )
    print(
        f"{connected}/{args.spectators} spectators connected in {result['connect_s']} s; "
        f"server RSS {rss_before / 1024:.1f} -> {rss_after / 1024:.1f} MiB "
        f"({result['kib_per_connection']} KiB per connection); sockets per worker "
        f"{result['connections_per_worker']}; permessage-deflate negotiated by "
        f"{result['deflate_negotiated']}",
        flush=True,
    )

    # The recorders.
    services = Services()
    samples0 = read_samples(server.samples)
    web_samples0 = read_samples(web.samples if web else None)
    sessions0 = await asyncio.to_thread(pg_sessions)
    cpu0, svc0, own0, wall0 = server.cpu(), services.cpu(), os.times(), time.monotonic()
    web0 = web.cpu() if web else 0.0
    load0 = os.getloadavg()
    result["wall_minus_monotonic"] = time.time() - time.monotonic()
    start = time.monotonic() + 1
    until = start + args.seconds
    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        await asyncio.gather(
            *(
                record(
                    t,
                    (web or server).port,
                    pool,
                    start,
                    args.every * i / len(tables),
                    args.every,
                    until,
                )
                for i, t in enumerate(tables)
            )
        )
    await asyncio.sleep(args.drain)
    cpu1, svc1, own1, wall1 = server.cpu(), services.cpu(), os.times(), time.monotonic()
    web1 = web.cpu() if web else 0.0
    result["pg_backends"] = services.backends()
    sessions1 = await asyncio.to_thread(pg_sessions)
    result["pg_sessions"] = (
        sessions1 - sessions0 - 1 if sessions0 is not None and sessions1 is not None else None
    )
    if server.samples is not None:
        await asyncio.sleep(4)  # the samplers' next write
        result["samples"] = sample_report(samples0, read_samples(server.samples))
        if web is not None and web.samples is not None:
            result["web_samples"] = sample_report(
                web_samples0, read_samples(web.samples), loop_name="request thread"
            )
    result.update(
        server_cpu_s=round(cpu1 - cpu0 + web1 - web0, 2),
        web_cpu_s=round(web1 - web0, 2),
        asgi_cpu_s=round(cpu1 - cpu0, 2),
        services_cpu_s={k: round(svc1[k] - svc0[k], 2) for k in svc1},
        bench_cpu_s=round(own1.user + own1.system - own0.user - own0.system, 2),
        wall_s=round(wall1 - wall0, 1),
        load=[round(x, 2) for x in (*load0, *os.getloadavg())],
        rss_end_kib=server.rss_kib(),
        connections_per_worker_end=list(socket_counts(server.workers(), server.port).values()),
    )
    stop.set()
    await asyncio.gather(*tasks)
    result["closed_early"] = sum(1 for s in spectators if s.closed_early)
    result["spectators"] = spectators
    return result


def pg_sessions() -> int | None:
    """Sessions PostgreSQL has opened on this database so far (PostgreSQL 14+)."""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
            )
            row = cursor.fetchone()
    except Exception:  # noqa: BLE001 - an older PostgreSQL: no figure
        return None
    finally:
        connection.close()
    return int(row[0]) if row else None


def read_samples(prefix: Path | None) -> dict[str, int]:
    """The workers' folded stacks so far, summed (see SAMPLER)."""
    counts: dict[str, int] = {}
    if prefix is None:
        return counts
    for path in prefix.parent.glob(prefix.name + ".*"):
        if path.suffix == ".tmp":
            continue
        for line in path.read_text().splitlines():
            key, _, n = line.rpartition(" ")
            counts[key] = counts.get(key, 0) + int(n)
    return counts


# The innermost Python frame of a thread that waits: for work (an event loop's select, a
# gunicorn sync worker's select on its listener), or (psycopg's wait, whose C part
# releases the GIL) for PostgreSQL's answer and then for the GIL.
IDLE_TOPS = {
    "selectors.py:select",
    "sync.py:wait",
    "thread.py:_worker",
    "threading.py:wait",
    "queue.py:get",
}
PG_TOPS = {"connection.py:wait"}


def sample_report(
    before: dict[str, int], after: dict[str, int], top: int = 22, loop_name: str = "event loop"
) -> list[str]:
    """Where the workers' threads spent the run: the event loop (MainThread) and the
    threads that run Django's sync code, busy or waiting, and the functions most often
    on a busy stack (inclusive; the frames on nearly every stack left out)."""
    threads: dict[str, list[int]] = {}
    inclusive: dict[str, dict[str, int]] = {}
    for key, n in after.items():
        n -= before.get(key, 0)
        if n <= 0:
            continue
        name, _, folded = key.partition("|")
        thread = loop_name if name == "MainThread" else "sync threads"
        frames = folded.split(";")
        state = 2 if frames[-1] in PG_TOPS else 1 if frames[-1] in IDLE_TOPS else 0
        threads.setdefault(thread, [0, 0, 0])[state] += n
        if state == 0:
            per = inclusive.setdefault(thread, {})
            for frame in set(frames):
                per[frame] = per.get(frame, 0) + n
    lines = []
    for thread, (busy, idle, pg) in sorted(threads.items()):
        total = busy + idle + pg
        lines.append(
            f"  {thread}: {total} samples; busy {busy / total:.0%}, in psycopg's wait "
            f"(PostgreSQL, then the GIL) {pg / total:.0%}, idle {idle / total:.0%}; "
            f"busy stacks through:"
        )
        per = inclusive.get(thread, {})
        shown = [f for f in sorted(per.items(), key=lambda f: -f[1]) if f[1] < 0.97 * busy]
        for frame, n in shown[:top]:
            lines.append(f"    {n / max(1, busy):6.1%}  {frame}")
    return lines


# --- the figures --------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def latencies(
    tables: list[Table], spectators: list[Spectator], saved_at: dict[tuple[int, int], float]
) -> dict[str, Any]:
    """Per (ply, spectator): first message showing the ply (or a later one) minus the
    recorder's answer; minus the ply row's time (`saved_at`, set just before the
    commit, on the monotonic clock); and minus the request's sending."""
    from_answer: list[float] = []
    from_row: list[float] = []
    from_send: list[float] = []
    unseen = unseen_kept = missed_exact = duplicates = 0
    worst: list[tuple[float, int, int, int]] = []
    watching = [s for s in spectators if s.connected_at is not None]
    for s in watching:
        for t in tables:
            events = sorted(s.seen.get(t.game, []), key=lambda e: e[1])
            exact = {plies for plies, _at in events}
            duplicates += len(events) - len(exact)
            for n, answered in t.answers.items():
                first = next((at for plies, at in events if plies >= n), None)
                if first is None:
                    unseen += 1
                    unseen_kept += s.error is None and not s.closed_early
                    continue
                if n not in exact:
                    missed_exact += 1
                from_answer.append(first - answered)
                from_send.append(first - t.sent_at[n])
                if (t.game, n) in saved_at:
                    from_row.append(first - saved_at[t.game, n])
                worst.append((first - answered, t.number, n, s.number))
    worst.sort(reverse=True)
    return {
        "pairs": len(from_answer) + unseen,
        "unseen": unseen,
        "unseen_kept": unseen_kept,
        "missed_messages": missed_exact,
        "duplicate_messages": duplicates,
        "p50_s": percentile(from_answer, 50),
        "p95_s": percentile(from_answer, 95),
        "p99_s": percentile(from_answer, 99),
        "max_s": max(from_answer) if from_answer else float("nan"),
        "before_answer_share": sum(1 for x in from_answer if x < 0) / max(1, len(from_answer)),
        "row_p50_s": percentile(from_row, 50),
        "row_p95_s": percentile(from_row, 95),
        "row_max_s": max(from_row) if from_row else float("nan"),
        "send_p50_s": percentile(from_send, 50),
        "send_p95_s": percentile(from_send, 95),
        "send_max_s": max(from_send) if from_send else float("nan"),
        "worst": worst[:5],
        "by_second": _by_second(tables, watching),
    }


def _by_second(tables: list[Table], spectators: list[Spectator]) -> list[tuple[int, float, float]]:
    """p95 and max of the latency per 10 s of the run (when the ply was answered)."""
    if not any(t.answers for t in tables):
        return []
    start = min(a for t in tables for a in t.answers.values())
    buckets: dict[int, list[float]] = {}
    for s in spectators:
        for t in tables:
            events = sorted(s.seen.get(t.game, []), key=lambda e: e[1])
            for n, answered in t.answers.items():
                first = next((at for plies, at in events if plies >= n), None)
                if first is not None:
                    buckets.setdefault(int((answered - start) // 10), []).append(first - answered)
    return [
        (k * 10, round(percentile(v, 95), 3), round(max(v), 3)) for k, v in sorted(buckets.items())
    ]


def check_records(tables: list[Table]) -> dict[str, Any]:
    """Each game's stored record against the plies its recorder got accepted."""
    from tournaments.models import Game, Ply

    lost = duplicated = wrong = 0
    problems = []
    stored = {g.pk: g for g in Game.objects.filter(pk__in=[t.game for t in tables])}
    ply_rows: dict[int, list[int]] = {}
    for game_id, number in Ply.objects.filter(game_id__in=stored).values_list("game_id", "number"):
        ply_rows.setdefault(game_id, []).append(number)
    for t in tables:
        moves = list(stored[t.game].moves)
        numbers = sorted(ply_rows.get(t.game, []))
        if moves[: len(t.sent)] != t.sent[: len(moves)]:
            wrong += 1
            problems.append(f"table {t.number}: the stored record differs from the accepted plies")
        if len(moves) < len(t.sent):
            lost += len(t.sent) - len(moves)
            problems.append(f"table {t.number}: {len(t.sent) - len(moves)} accepted plies missing")
        if len(moves) > len(t.sent):
            duplicated += len(moves) - len(t.sent)
            problems.append(f"table {t.number}: {len(moves) - len(t.sent)} plies more than sent")
        if numbers != list(range(1, len(t.sent) + 1)):
            duplicated += max(0, len(numbers) - len(set(numbers)))
            problems.append(f"table {t.number}: ply rows {numbers[:5]}… for {len(t.sent)} plies")
    return {"lost": lost, "duplicated": duplicated, "different": wrong, "problems": problems[:10]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between a table's plies")
    parser.add_argument("--seconds", type=float, default=120.0, help="recording time")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--web-workers",
        type=int,
        default=2,
        help="the web process (gunicorn config.wsgi, sync workers) the recorders post to, as "
        "docs/operations.md lays the processes out; 0: everything on the ASGI process",
    )
    parser.add_argument(
        "--connect-seconds", type=float, default=10.0, help="spread of the connects"
    )
    parser.add_argument("--drain", type=float, default=5.0, help="wait after the last ply")
    parser.add_argument("--server-log", help="keep gunicorn's whole log in this file")
    parser.add_argument(
        "--layer-socket-timeout",
        help="seconds (or 'none'): override the sockets' channel layer's Redis read timeout "
        "in the server (a settings module written for the run); default: as configured",
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the in-process plies (top functions)"
    )
    parser.add_argument("--profile-only", action="store_true", help="build, profile, stop")
    parser.add_argument(
        "--sample",
        action="store_true",
        help="sample the workers' Python stacks during the run and print where time went",
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help=f"the live process with uvicorn's stock worker ({STOCK_WORKER}), which "
        f"compresses every message, instead of {LIVE_WORKER}",
    )
    parser.add_argument(
        "--library-client",
        action="store_true",
        help="spectators on the websockets library's client (offering compression, as "
        "browsers do; the bench's CPU per message is about five times the default light "
        "client's, and on two cores the bench then lags the server)",
    )
    parser.add_argument(
        "--shared-listener",
        action="store_true",
        help="the live workers share the master's listening socket (gunicorn without "
        "--reuse-port, as before issue 44): whichever wakes first accepts",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="spectators do not offer permessage-deflate (browsers do; the live worker "
        "declines it anyway)",
    )
    args = parser.parse_args()
    if args.deflate:
        args.library_client = True  # the light client offers no compression
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("needs DATABASE_URL (PostgreSQL) and REDIS_URL: bash bench/live_load.sh")
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("needs REDIS_URL: bash bench/live_load.sh")
    tmp = Path(tempfile.mkdtemp(prefix="agon-live-load."))
    os.environ.update(
        DEBUG="false",
        # The recording board needs the hashed static files' manifest, as in production.
        STATIC_ROOT=str(tmp / "static"),
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="false",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if settings.CSRF_COOKIE_NAME != "csrftoken" or settings.CSRF_USE_SESSIONS:
        raise SystemExit("the recorders send Django's default CSRF cookie; settings differ")
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    started = time.perf_counter()
    world = build(args.tables)
    print(
        f"built {3 * args.tables} players, {args.tables} tables of 3 "
        f"(shortest record {min(len(t.record) for t in world['tables'])} plies) "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    prof = profile_ply(
        world["spare"], world["spare_token"], cprofile=args.profile or args.profile_only
    )
    print(f"one ply in-process: {json.dumps(prof)}", flush=True)
    if args.profile_only:
        shutil.rmtree(tmp, ignore_errors=True)
        return
    connection.close()

    server = Server(
        args.workers,
        tmp / "gunicorn.log",
        args.layer_socket_timeout,
        args.sample,
        worker_class=STOCK_WORKER if args.deflate else LIVE_WORKER,
        reuse_port=not args.shared_listener,
    )
    web = (
        Server(args.web_workers, tmp / "web.log", sample=args.sample, wsgi=True)
        if args.web_workers
        else None
    )
    layout = {
        "plies_to": f"WSGI config.wsgi, {args.web_workers} {web.worker_class()} workers"
        if web
        else "the ASGI process",
        "asgi_worker_class": server.worker_class(),
        "asgi_workers": args.workers,
        "asgi_reuse_port": not args.shared_listener,
        "settings_overrides": server.overrides,
    }
    print(f"layout: {json.dumps(layout)}", flush=True)
    log = ""
    try:
        wait_ready(server.port, time.monotonic() + 60)
        if web is not None:
            wait_ready(web.port, time.monotonic() + 60)
        # Each recorder's phone opens its recording board first (and warms the workers).
        for t in world["tables"]:
            conn = http.client.HTTPConnection(HOST, (web or server).port, timeout=30)
            conn.request("GET", t.urls[1], headers={"Host": HOST})
            page = conn.getresponse()
            page.read()
            conn.close()
            if page.status != 200:
                raise SystemExit(f"the recording board answered {page.status}")
        load = asyncio.run(run_load(args, world, server, web))
    except BaseException:
        print(f"gunicorn log (tail):\n{server.stop()[-3000:]}", file=sys.stderr)
        raise
    finally:
        log = server.stop()
        if web is not None:
            log += web.stop()
        if args.server_log:
            shutil.copyfile(server.logpath, args.server_log)
        shutil.rmtree(tmp, ignore_errors=True)
    spectators: list[Spectator] = load.pop("spectators")
    tables: list[Table] = world["tables"]
    records = check_records(tables)
    # Ply rows' times (the server's wall clock, just before the commit) on our monotonic clock.
    from tournaments.models import Ply

    offset = load["wall_minus_monotonic"]
    saved_at = {
        (g, n): at.timestamp() - offset
        for g, n, at in Ply.objects.filter(game_id__in=[t.game for t in tables]).values_list(
            "game_id", "number", "at"
        )
    }
    lat = latencies(tables, spectators, saved_at)
    saved = sum(len(t.answers) for t in tables)
    save_s = [x for t in tables for x in t.save_s]
    messages = sum(s.messages for s in spectators)
    svc = load["services_cpu_s"]
    met = (
        max(lat["p95_s"], lat["row_p95_s"]) <= TARGET_P95_S
        and max(lat["max_s"], lat["row_max_s"]) <= TARGET_MAX_S
        and lat["unseen"] == 0
        and records["lost"] == records["duplicated"] == records["different"] == 0
    )

    def ms(x: float) -> str:
        return f"{x * 1000:8.0f} ms"

    print("\nSUMMARY")
    rows = [
        ("plies saved", f"{saved} ({saved / args.seconds:.2f}/s), {len(tables)} tables"),
        (
            "ply save (request) p50 / p95 / max",
            f"{ms(percentile(save_s, 50))} {ms(percentile(save_s, 95))} {ms(max(save_s) if save_s else 0)}",
        ),
        (
            "saved -> seen p50 / p95 / p99 / max",
            f"{ms(lat['p50_s'])} {ms(lat['p95_s'])} {ms(lat['p99_s'])} {ms(lat['max_s'])}",
        ),
        (
            "ply row written -> seen p50 / p95 / max",
            f"{ms(lat['row_p50_s'])} {ms(lat['row_p95_s'])} {ms(lat['row_max_s'])}",
        ),
        (
            "sent -> seen p50 / p95 / max",
            f"{ms(lat['send_p50_s'])} {ms(lat['send_p95_s'])} {ms(lat['send_max_s'])}",
        ),
        (
            "(ply, spectator) pairs",
            f"{lat['pairs']}, never seen {lat['unseen']} ({lat['unseen_kept']} by sockets that stayed open), message missed (a later one seen) {lat['missed_messages']}, duplicate messages {lat['duplicate_messages']}, seen before the answer {lat['before_answer_share']:.1%}",
        ),
        (
            "plies lost / duplicated / different",
            f"{records['lost']} / {records['duplicated']} / {records['different']}",
        ),
        (
            "recorders: retries, refused, late ticks",
            f"{sum(t.retries for t in tables)}, {sum(len(t.refused) for t in tables)}, {sum(t.late for t in tables)}",
        ),
        (
            "spectators connected / errors / closed early",
            f"{load['connected']} / {len(load['connect_errors'])} / {load['closed_early']}",
        ),
        (
            "messages received",
            f"{messages}, {sum(s.bytes for s in spectators) / max(1, messages):.0f} bytes each",
        ),
        (
            "memory per spectator connection",
            f"{load['kib_per_connection']} KiB (server RSS {load['rss_before_kib'] / 1024:.1f} -> {load['rss_after_kib'] / 1024:.1f} MiB, {load['rss_end_kib'] / 1024:.1f} at the end)",
        ),
        (
            "server CPU per ply",
            f"{load['server_cpu_s'] / max(1, saved) * 1000:.1f} ms = web (WSGI) {load['web_cpu_s'] / max(1, saved) * 1000:.1f} + live (ASGI) {load['asgi_cpu_s'] / max(1, saved) * 1000:.1f} ms ({load['server_cpu_s']} s = {load['web_cpu_s']} + {load['asgi_cpu_s']} s over {load['wall_s']} s: {load['server_cpu_s'] / load['wall_s']:.0%} of a core)",
        ),
        (
            "PostgreSQL / Redis CPU per ply",
            f"{svc.get('postgres', float('nan')) / max(1, saved) * 1000:.1f} / {svc.get('redis', float('nan')) / max(1, saved) * 1000:.1f} ms"
            if svc
            else "n/a (run through bench/live_load.sh)",
        ),
        (
            "PostgreSQL connections opened in the run; processes at its end",
            f"{load['pg_sessions']}; {load['pg_backends']} (max_connections 200)",
        ),
        (
            "the bench's own CPU",
            f"{load['bench_cpu_s']} s ({load['bench_cpu_s'] / load['wall_s']:.0%} of a core)",
        ),
        (
            "sockets per worker (start, end)",
            f"{load['connections_per_worker']}, {load['connections_per_worker_end']}",
        ),
        ("load average at start, end", f"{load['load'][:3]} -> {load['load'][3:]}"),
        (
            "layout",
            f"plies to {layout['plies_to']}; sockets on {args.workers} {layout['asgi_worker_class']} "
            f"workers, permessage-deflate negotiated by {load['deflate_negotiated']} of "
            f"{load['connected']}; settings overrides: {'yes' if layout['settings_overrides'] else 'none'}",
        ),
        (
            f"targets p95 <= {TARGET_P95_S:g} s, max <= {TARGET_MAX_S:g} s, 0 unseen, 0 lost",
            "met" if met else "MISSED",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"  {label:<{width}}  {value}")
    if lat["worst"]:
        print(
            "  worst pairs (s, table, ply, spectator): "
            + ", ".join(f"({w[0]:.2f}, {w[1]}, {w[2]}, {w[3]})" for w in lat["worst"])
        )
    print(f"  p95 / max per 10 s of the run: {lat['by_second']}")
    for t in tables:
        for problem in t.refused[:1]:
            print(f"  table {t.number} refused: {problem}")
    for problem in records["problems"]:
        print(f"  record: {problem}")
    if load.get("samples"):
        print("where the ASGI workers' threads spent the recording run (stack samples every 5 ms):")
        print("\n".join(load["samples"]))
    if load.get("web_samples"):
        print("where the WSGI workers' threads spent the recording run:")
        print("\n".join(load["web_samples"]))
    if load["connect_errors"]:
        print(f"  socket errors: {load['connect_errors']}")
    if log:
        print(f"gunicorn log (tail):\n{log[-3000:]}", file=sys.stderr)
    line = {
        "bench": "live_load",
        "tables": args.tables,
        "spectators": args.spectators,
        "every_s": args.every,
        "seconds": args.seconds,
        "workers": args.workers,
        "variant": {
            "layer_socket_timeout": args.layer_socket_timeout,
            "deflate_server": args.deflate,
            "deflate_offered": args.library_client and not args.no_deflate,
            "library_client": args.library_client,
            "deflate_negotiated": load["deflate_negotiated"],
            "sample": args.sample,
        },
        "layout": layout,
        "plies_saved": saved,
        "save_ms": {
            "p50": round(percentile(save_s, 50) * 1000, 1),
            "p95": round(percentile(save_s, 95) * 1000, 1),
            "max": round(max(save_s, default=0) * 1000, 1),
        },
        "seen_ms": {k: round(lat[f"{k}_s"] * 1000, 1) for k in ("p50", "p95", "p99", "max")},
        "seen_from_row_ms": {k: round(lat[f"row_{k}_s"] * 1000, 1) for k in ("p50", "p95", "max")},
        "seen_from_send_ms": {
            k: round(lat[f"send_{k}_s"] * 1000, 1) for k in ("p50", "p95", "max")
        },
        "pairs": lat["pairs"],
        "unseen": lat["unseen"],
        "unseen_kept": lat["unseen_kept"],
        "missed_messages": lat["missed_messages"],
        "duplicate_messages": lat["duplicate_messages"],
        "lost": records["lost"],
        "duplicated": records["duplicated"],
        "different": records["different"],
        "retries": sum(t.retries for t in tables),
        "refused": sum(len(t.refused) for t in tables),
        "connected": load["connected"],
        "message_bytes": round(sum(s.bytes for s in spectators) / max(1, messages)),
        "kib_per_connection": load["kib_per_connection"],
        "rss_mib": [
            round(load[k] / 1024, 1) for k in ("rss_before_kib", "rss_after_kib", "rss_end_kib")
        ],
        "server_cpu_ms_per_ply": round(load["server_cpu_s"] / max(1, saved) * 1000, 1),
        "services_cpu_ms_per_ply": {k: round(v / max(1, saved) * 1000, 1) for k, v in svc.items()},
        "bench_cpu_s": load["bench_cpu_s"],
        "sockets_per_worker": load["connections_per_worker"],
        "web_workers": args.web_workers,
        "web_cpu_s": load["web_cpu_s"],
        "asgi_cpu_s": load["asgi_cpu_s"],
        "cpu_ms_per_ply": {
            "web": round(load["web_cpu_s"] / max(1, saved) * 1000, 1),
            "asgi": round(load["asgi_cpu_s"] / max(1, saved) * 1000, 1),
        },
        "pg_backends_at_end": load["pg_backends"],
        "pg_sessions_in_run": load["pg_sessions"],
        "load": load["load"],
        "profile": prof,
        "met": met,
    }
    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    threading.current_thread().name = "live_load"
    main()
