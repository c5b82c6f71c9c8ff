"""Pollers on the standings API of a 500-player tournament, while results come in.

Production-style: gunicorn (gthread workers), PostgreSQL and Redis from DATABASE_URL and
REDIS_URL (bench/api_load.sh starts private ones on loopback), DEBUG off. Builds the
tournament with bulk inserts (some closed rounds and a published one with its games
still to play), then:

1. `wrk` with many connections on `/healthz` (one `SELECT 1`): the server's ceiling;
2. the same on `/api/v1/tournaments/<slug>/standings/`, each connection sending back
   the last ETag it saw (If-None-Match), while a writer enters one result through the
   API every `--write-every` seconds into the round being played, and every
   `--change-every` seconds corrects one in a closed round instead, which changes the
   standings and so every poller's ETag;

and reports requests/s, p50/p95/p99 latency, the share of 304s and the ratio of the two
throughputs. It also profiles one poll in-process (queries and time, 200 and 304).
Everything it starts is stopped at the end; only 127.0.0.1 is used.

    bash bench/api_load.sh [--players 500] [--rounds 4] [--seconds 20] [--clients 100] [--asgi]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"

LUA = r"""
-- Each connection polls one URL and sends back the last ETag its thread saw.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) etag = nil; n200 = 0; n304 = 0; nother = 0; think = tonumber(args[1]) or 0 end
-- Milliseconds each connection waits between two polls (0: as fast as answered).
function delay() return think end
function request()
  if etag then
    return wrk.format("GET", nil, {["If-None-Match"] = etag})
  end
  return wrk.format("GET", nil)
end
function response(status, headers, body)
  if status == 200 then
    n200 = n200 + 1
    etag = headers["ETag"] or headers["etag"] or etag
  elseif status == 304 then
    n304 = n304 + 1
  else
    nother = nother + 1
  end
end
function done(summary, latency, requests)
  local a, b, c = 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("n200"); b = b + t:get("n304"); c = c + t:get("nother")
  end
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "errors": %d, "p50_ms": %.2f, ' ..
    '"p95_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, "s200": %d, "s304": %d, "other": %d}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write +
      summary.errors.status + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, a, b, c))
end
"""


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def build(players: int, rounds: int) -> dict[str, Any]:
    """A published tournament: `rounds` closed rounds and one published round whose
    games are still to play, plus a director with a token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from bench.synthetic import bulk_round
    from tournaments.models import Club, Entry, Player, Tournament

    rng = random.Random(6)
    stamp = time.time_ns()
    club = Club.objects.create(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    tournament = Tournament.objects.create(
        club=club,
        name=f"Bench {stamp}",
        slug=f"bench-open-{stamp}",
        rounds_planned=rounds + 3,
        published=True,
        status="running",
    )
    director = get_user_model().objects.create(username=f"td-{stamp}")
    tournament.directors.add(director)
    token = Token.objects.create(user=director).key
    people = Player.objects.bulk_create(Player(club=club, name=f"P{i}") for i in range(players))
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, seed=i + 1, rating=1500 + rng.randint(-300, 300))
        for i, p in enumerate(people)
    )
    open_games: list[int] = []
    closed_games: list[int] = []
    for number in range(1, rounds + 2):
        closed = number <= rounds
        tables, made = bulk_round(tournament, number, entries, rng, closed=closed)
        two_seat = {tb.pk for i, tb in enumerate(tables) if i < len(tables) - 1}
        games = [g.pk for g in made if g.table_id in two_seat]
        if closed:
            closed_games = games
        else:
            open_games = games
    return {
        "slug": tournament.slug,
        "token": token,
        "open_games": open_games,
        "closed_games": closed_games,
    }


def profile(slug: str) -> dict[str, Any]:
    """One poll in-process: queries and time for a 200 and for a 304."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST=HOST)
    url = f"/api/v1/tournaments/{slug}/standings/"
    client.get(url)  # warm: computes and caches
    result: dict[str, Any] = {}
    etag = client.get(url)["ETag"]
    for label, headers in (("200", {}), ("304", {"HTTP_IF_NONE_MATCH": etag})):
        best = float("inf")
        for _ in range(20):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url, **headers)
                best = min(best, time.perf_counter() - start)
        assert response.status_code == int(label), response.status_code
        result[label] = {
            "ms": round(best * 1000, 2),
            "queries": len(queries),
            "bytes": len(response.content),
            "sql_ms": [float(q["time"]) * 1000 for q in queries.captured_queries],
        }
    if os.environ.get("API_LOAD_SQL"):
        for q in queries.captured_queries:
            print(f"  {float(q['time']) * 1000:6.2f} ms  {q['sql'][:300]}")
    return result


def wait_ready(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz", headers={"Host": HOST})
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer /healthz in time")


def run_wrk(url: str, seconds: int, clients: int, lua: Path, think_ms: int = 0) -> dict[str, Any]:
    command = ["wrk", "-t2", f"-c{clients}", f"-d{seconds}s", "--timeout", "5s", "-s", str(lua)]
    out = subprocess.run(
        [*command, url, "--", str(think_ms)],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    result["rps"] = round(result["requests"] / result["seconds"], 1)
    return result


class Writer(threading.Thread):
    """Enters one result through the API every `every` seconds until stopped: results of
    the round being played, and every `change_every` seconds instead a correction in
    the last closed round, which changes the standings (and so every poller's ETag)."""

    def __init__(
        self,
        port: int,
        token: str,
        games: list[int],
        every: float,
        closed: Sequence[int] = (),
        change_every: float = 0.0,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.games, self.every = port, token, games, every
        self.closed = list(closed)
        self.nth = max(1, round(change_every / every)) if change_every and closed else 0
        self.stop = threading.Event()
        self.ok = 0
        self.changes = 0
        self.failed: list[int] = []

    def _next(self) -> list[tuple[int, list[int]]]:
        """(game, pieces out) to write, in order."""
        plan: list[tuple[int, list[int]]] = []
        corrections = 0
        for tick, game in enumerate(self.games, start=1):
            if self.nth and tick % self.nth == 0:
                closed = self.closed[corrections % len(self.closed)]
                # Alternate between two results so that every correction changes it.
                plan.append((closed, [3, corrections // len(self.closed) % 2]))
                corrections += 1
            plan.append((game, [3, random.randint(0, 2)]))
        return plan

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        for game, out in self._next():
            if self.stop.wait(self.every):
                break
            body = json.dumps({"out": out, "finished": True})
            try:
                conn.request(
                    "PUT",
                    f"/api/v1/games/{game}/",
                    body=body,
                    headers={
                        "Host": HOST,
                        "Content-Type": "application/json",
                        "Authorization": f"Token {self.token}",
                    },
                )
                response = conn.getresponse()
                response.read()
            except OSError:
                conn.close()
                conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
                self.failed.append(0)
                continue
            if response.status == 200:
                self.ok += 1
                self.changes += game in self.closed
            else:
                self.failed.append(response.status)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=4, help="closed rounds")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--write-every", type=float, default=0.5)
    parser.add_argument(
        "--change-every",
        type=float,
        default=5.0,
        help="seconds between corrections in a closed round (they change the standings)",
    )
    parser.add_argument("--think-ms", type=int, default=85, help="pause per poll, paced run")
    parser.add_argument("--profile-only", action="store_true", help="build, profile, stop")
    parser.add_argument(
        "--asgi", action="store_true", help="serve config.asgi with uvicorn workers, not WSGI"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("needs DATABASE_URL (PostgreSQL) and REDIS_URL: bash bench/api_load.sh")
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("needs REDIS_URL: bash bench/api_load.sh")
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing (apt-get install -y wrk)")
    os.environ.update(
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="false",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    world = build(args.players, args.rounds)
    built = time.perf_counter() - start
    print(
        f"built {args.players} players, {args.rounds} closed rounds + 1 open in {built:.1f} s",
        flush=True,
    )
    prof = profile(world["slug"])
    print(f"one poll in-process: {json.dumps(prof)}", flush=True)
    if args.profile_only:
        return

    tmp = Path(tempfile.mkdtemp(prefix="agon-api-load."))
    lua = tmp / "poll.lua"
    lua.write_text(LUA)
    port = free_port()
    log = open(tmp / "gunicorn.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            *(
                ["config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"]
                if args.asgi
                else ["config.wsgi", "--threads", str(args.threads), "--worker-class", "gthread"]
            ),
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(args.workers),
            "--keep-alive",
            "30",
            "--backlog",
            "512",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    writer = None
    try:
        wait_ready(port, time.monotonic() + 60)
        base = f"http://{HOST}:{port}"
        standings = f"{base}/api/v1/tournaments/{world['slug']}/standings/"
        run_wrk(standings, 2, 20, lua)  # warm every worker
        trivial = run_wrk(f"{base}/healthz", args.seconds, args.clients, lua)
        print(f"/healthz: {json.dumps(trivial)}", flush=True)
        games = world["open_games"]
        half = len(games) // 2
        writer = Writer(
            port,
            world["token"],
            games[:half],
            args.write_every,
            world["closed_games"],
            args.change_every,
        )
        writer.start()
        polled = run_wrk(standings, args.seconds, args.clients, lua)
        writer.stop.set()
        writer.join(timeout=15)
        print(f"standings: {json.dumps(polled)}", flush=True)
        print(f"writes: {writer.ok} ok, failed: {writer.failed[:10]}", flush=True)
        # The same pollers, each waiting --think-ms between two polls: latency at a
        # given offered load rather than at saturation.
        paced_writer = Writer(
            port,
            world["token"],
            games[half:],
            args.write_every,
            world["closed_games"][::-1],
            args.change_every,
        )
        paced_writer.start()
        paced = run_wrk(standings, args.seconds, args.clients, lua, args.think_ms)
        paced_writer.stop.set()
        paced_writer.join(timeout=15)
        print(f"standings, {args.think_ms} ms between polls: {json.dumps(paced)}", flush=True)
        share_304 = polled["s304"] / max(1, polled["s200"] + polled["s304"] + polled["other"])
        ratio = polled["rps"] / trivial["rps"]
        print(
            "\nSUMMARY\n"
            f"  standings: {polled['rps']:.0f} req/s, p50 {polled['p50_ms']:.1f} ms, "
            f"p95 {polled['p95_ms']:.1f} ms, p99 {polled['p99_ms']:.1f} ms, "
            f"304s {share_304:.1%}, non-2xx/304 {polled['other']}, socket errors "
            f"{polled['errors']}\n"
            f"  /healthz:  {trivial['rps']:.0f} req/s, p50 {trivial['p50_ms']:.1f} ms, "
            f"p95 {trivial['p95_ms']:.1f} ms, p99 {trivial['p99_ms']:.1f} ms\n"
            f"  ratio standings / healthz: {ratio:.2f}\n"
            f"  writes during the run: {writer.ok} ({len(writer.failed)} failed), of which "
            f"{writer.changes} changed the standings\n"
            f"  paced ({args.clients} clients, {args.think_ms} ms between polls): "
            f"{paced['rps']:.0f} req/s, p50 {paced['p50_ms']:.1f} ms, p95 "
            f"{paced['p95_ms']:.1f} ms, p99 {paced['p99_ms']:.1f} ms, writes {paced_writer.ok} "
            f"({len(paced_writer.failed)} failed, {paced_writer.changes} changed the standings)\n"
            f"  target >= 1000 req/s and p95 < 50 ms: saturated "
            f"{'met' if polled['rps'] >= 1000 and polled['p95_ms'] < 50 else 'MISSED'}, paced "
            f"{'met' if paced['rps'] >= 1000 and paced['p95_ms'] < 50 else 'MISSED'}",
            flush=True,
        )
    finally:
        if writer is not None:
            writer.stop.set()
        try:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
        errors = (tmp / "gunicorn.log").read_text(errors="replace").strip()
        if errors:
            print(f"gunicorn log (tail):\n{errors[-2000:]}", file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
