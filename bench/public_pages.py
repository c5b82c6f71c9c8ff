"""Plain GETs of the public pages of a 1,000-player tournament, beside `/healthz`.

Issue 44, point 4: the public round page, the standings page and the standings API,
asked for by spectators who send no If-None-Match (a first load, a reload, a bot), at
≥ 0.5× the throughput of `/healthz` on the same server in the same run, p95 ≤ 100 ms.

Production-style like bench/api_load.py (whose tournament and writer it uses): gunicorn
(gthread workers), PostgreSQL and Redis from DATABASE_URL and REDIS_URL (bench/
public_pages.sh starts private ones on loopback), DEBUG off. The tournament: `--rounds`
closed rounds and a published one, `--finished` of whose games already have a result.
Then `wrk` with `--clients` connections on each address in turn, `/healthz` first and
again last (the anchor is the mean of the two), each for `--seconds`, while a writer
enters a result in the published round every `--write-every` seconds (0: none) and
every `--change-every` seconds corrects one in a closed round (both change the round
page; the correction changes the standings). It also renders the round page once
in-process with the cache bypassed (queries and time) and reports the answers' sizes.

    bash bench/public_pages.sh [--players 1000] [--seconds 20] [--clients 50]
                               [--write-every 1] [--conditional] [--gzip]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_load import HOST, LUA, Writer, build, free_port, wait_ready  # noqa: E402

# With --conditional: api_load's script (each connection sends back the last ETag it
# saw). Plain GETs: no response() callback, so wrk does not hand every body (300-400 KB
# here) to Lua, a cost of the client on the same two cores; statuses other than 2xx/3xx
# are counted by wrk itself.
CONDITIONAL_LUA = LUA
PLAIN_LUA = r"""
function init(args) think = tonumber(args[1]) or 0 end
function delay() return think end
function done(summary, latency, requests)
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "errors": %d, "p50_ms": %.2f, ' ..
    '"p95_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, "s200": %d, "s304": 0, "other": %d}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write +
      summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.requests - summary.errors.status, summary.errors.status))
end
"""


# What a browser says it takes (--gzip): the pages from the cache then go out compressed.
BROWSER_ENCODING = "Accept-Encoding: gzip, deflate, br"


def run_wrk(
    url: str,
    seconds: int,
    clients: int,
    lua: Path,
    think_ms: int,
    conditional: str,
    headers: tuple[str, ...] = (),
) -> dict[str, Any]:
    command = ["wrk", "-t2", f"-c{clients}", f"-d{seconds}s", "--timeout", "5s", "-s", str(lua)]
    for header in headers:
        command += ["-H", header]
    out = subprocess.run(
        [*command, url, "--", str(think_ms), conditional],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    result["rps"] = round(result["requests"] / result["seconds"], 1)
    return result


def finish_some(world: dict[str, Any], share: float) -> list[int]:
    """Give a share of the published round's games a confirmed result (as a round an hour
    in looks); returns the games still without one."""
    from tournaments.models import Game

    games = world["open_games"]
    done = games[: int(len(games) * share)]
    Game.objects.filter(pk__in=done).update(status="finished", out_1=3, out_2=1, version=1)
    return games[len(done) :]


def render_once(path: str) -> dict[str, Any]:
    """One anonymous GET in-process with the shared page cache emptied first: the
    render's queries and time (best of 3)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST=HOST)
    best, queries, size = float("inf"), 0, 0
    for _ in range(3):
        cache.clear()
        try:
            from tournaments.core import page_cache

            page_cache.forget_local()
        except ImportError:  # the code before the page cache
            pass
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(path)
            best = min(best, time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        queries, size = len(captured), len(response.content)
    return {"ms": round(best * 1000, 1), "queries": queries, "bytes": size}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=4, help="closed rounds")
    parser.add_argument("--finished", type=float, default=0.5, help="share of games done")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--write-every", type=float, default=1.0, help="0: no writes")
    parser.add_argument("--change-every", type=float, default=10.0)
    parser.add_argument(
        "--conditional", action="store_true", help="send back the last ETag (If-None-Match)"
    )
    parser.add_argument(
        "--pages", default="round,standings,api", help="which of round, standings, api"
    )
    parser.add_argument(
        "--gzip", action="store_true", help="send Accept-Encoding: gzip, as browsers do"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit(
            "needs DATABASE_URL (PostgreSQL) and REDIS_URL: bash bench/public_pages.sh"
        )
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("needs REDIS_URL: bash bench/public_pages.sh")
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing (apt-get install -y wrk)")
    tmp = Path(tempfile.mkdtemp(prefix="agon-public-pages."))
    os.environ.update(
        STATIC_ROOT=str(tmp / "static"),
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
    call_command("collectstatic", interactive=False, verbosity=0)
    start = time.perf_counter()
    world = build(args.players, args.rounds)
    still_open = finish_some(world, args.finished)
    print(
        f"built {args.players} players, {args.rounds} closed rounds + 1 published "
        f"({args.finished:.0%} of its games done) in {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    slug, number = world["slug"], args.rounds + 1
    paths = {
        "round": f"/t/{slug}/rounds/{number}/",
        "standings": f"/t/{slug}/standings/",
        "api": f"/api/v1/tournaments/{slug}/standings/",
    }
    wanted = [p.strip() for p in args.pages.split(",") if p.strip()]
    once = {name: render_once(paths[name]) for name in wanted if name != "api"}
    print(f"one render in-process, cache empty: {json.dumps(once)}", flush=True)

    lua = tmp / "plain.lua"
    lua.write_text(CONDITIONAL_LUA if args.conditional else PLAIN_LUA)
    port = free_port()
    log = open(tmp / "gunicorn.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi",
            "--threads",
            str(args.threads),
            "--worker-class",
            "gthread",
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
    results: dict[str, dict[str, Any]] = {}
    conditional = "1" if args.conditional else "0"

    def wrk(path: str) -> dict[str, Any]:
        return run_wrk(
            f"http://{HOST}:{port}{path}",
            args.seconds,
            args.clients,
            lua,
            0,
            conditional,
            (BROWSER_ENCODING,) if args.gzip else (),
        )

    try:
        wait_ready(port, time.monotonic() + 60)
        for name in wanted:  # warm every worker
            run_wrk(f"http://{HOST}:{port}{paths[name]}", 2, 6, lua, 0, conditional)
        results["healthz"] = wrk("/healthz")
        print(f"/healthz: {json.dumps(results['healthz'])}", flush=True)
        if args.write_every > 0:
            writer = Writer(
                port,
                world["token"],
                still_open,
                args.write_every,
                world["closed_games"],
                args.change_every,
            )
            writer.start()
        for name in wanted:
            results[name] = wrk(paths[name])
            print(f"{name} ({paths[name]}): {json.dumps(results[name])}", flush=True)
        if writer is not None:
            writer.stop.set()
            writer.join(timeout=15)
        results["healthz2"] = wrk("/healthz")
        print(f"/healthz again: {json.dumps(results['healthz2'])}", flush=True)
        anchor = (results["healthz"]["rps"] + results["healthz2"]["rps"]) / 2
        lines = [
            "\nSUMMARY",
            f"  /healthz: {results['healthz']['rps']:.0f} and {results['healthz2']['rps']:.0f} "
            f"req/s (anchor {anchor:.0f}), p95 {results['healthz']['p95_ms']:.1f} ms",
        ]
        for name in wanted:
            r = results[name]
            ratio = r["rps"] / anchor
            met = ratio >= 0.5 and r["p95_ms"] <= 100 and r["other"] == 0 and r["errors"] == 0
            lines.append(
                f"  {name}: {r['rps']:.0f} req/s = {ratio:.3f}x /healthz, p50 "
                f"{r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
                f"200s {r['s200']}, 304s {r['s304']}, other {r['other']}, socket errors "
                f"{r['errors']} — target (>= 0.5x, p95 <= 100 ms) {'met' if met else 'MISSED'}"
            )
        if writer is not None:
            lines.append(
                f"  writes during the pages' runs: {writer.ok} ({len(writer.failed)} failed), "
                f"{writer.changes} of them changed the standings"
            )
        print("\n".join(lines), flush=True)
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
