"""The size of a game's replay page (/games/<id>/), and with --browser its load in
Chromium on a throttled phone (not a test).

    .venv/bin/python bench/replay_page.py [--plies 100,300,700] [--browser] [--repeat 3]

Builds a tournament of 3-player tables in a scratch SQLite database
(var/bench-replay.sqlite3) and records, through the results service, one complete
random game per --plies target (the seeded game of 3 players whose length is closest).
The site runs as in production (DEBUG off, static files collected and compressed by
whitenoise into var/bench-replay-static). For each game's replay page it prints:

- raw: the HTML's bytes as the view renders it (no Accept-Encoding);
- sent: the bytes sent to a client that accepts gzip (what the site itself sends; the
  same as raw while nothing compresses pages);
- gzip -6: the raw HTML compressed at level 6, what a compressing proxy would send;
- data: the page's JSON block (`pg-data`) and the share of it that is per-ply positions.

With --browser, each page is loaded --repeat times (cold cache) in headless Chromium,
390x844 px, CPU slowed 4x, network as Lighthouse's "Slow 4G" (150 ms round trip,
1.6 Mbit/s down, 750 kbit/s up, DevTools throttling): the median LCP, the time until
the board shows its first position (`#pg-ply` gets its text) and the bytes transferred
(the page and its static files).

Run it from a checkout of each commit to compare: it only uses the services, the
factories and the page's address.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.chromium import chromium  # noqa: E402 - after the path above

# Lighthouse's mobile network (DevTools throttling) and CPU slow-down.
NETWORK = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8,
    "uploadThroughput": 750 * 1024 / 8,
}
CPU_SLOWDOWN = 4

# Injected before the page's own scripts: when the board shows its first position.
READY_PROBE = """
window.__bench = {};
new MutationObserver((_, observer) => {
  const ply = document.getElementById("pg-ply");
  if (ply && ply.textContent) {
    window.__bench.ready = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""

LCP = """
const done = arguments[arguments.length - 1];
let last = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) last = entry.startTime;
}).observe({ type: "largest-contentful-paint", buffered: true });
setTimeout(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  done({
    lcp: last,
    ready: window.__bench.ready,
    page: nav.transferSize,
    total: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
  });
}, 500);
"""


def _setup() -> None:
    scratch = ROOT / "var" / "bench-replay.sqlite3"
    scratch.parent.mkdir(exist_ok=True)
    scratch.unlink(missing_ok=True)
    static = ROOT / "var" / "bench-replay-static"
    shutil.rmtree(static, ignore_errors=True)
    os.environ.update(
        DATABASE_URL=f"sqlite:///{scratch}",
        DEBUG="false",
        SECRET_KEY="bench-replay-page-not-a-secret",
        ALLOWED_HOSTS="localhost,127.0.0.1,testserver",
        SECURE_SSL_REDIRECT="false",
        STATIC_ROOT=str(static),
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)


def _records(targets: list[int], players: int) -> list[list[str]]:
    from games.pentagame.playout import random_game

    games = [random_game(players, seed=seed, max_plies=10_000) for seed in range(400)]
    return [min(games, key=lambda moves: abs(len(moves) - target)) for target in targets]


def _games(records: list[list[str]], players: int) -> list[Any]:
    from tests.factories import tournament_with_players
    from tournaments.desk.services.rounds import round_pair_next, round_publish
    from tournaments.models import Game, Tournament
    from tournaments.results.services.results import Actor, game_record_moves

    tournament = tournament_with_players(
        players * len(records), policy=Tournament.Policy.PREFER_TRIPLES
    )
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    games = []
    for table, moves in zip(round_.tables.order_by("number"), records, strict=True):
        game = Game.objects.filter(table=table).order_by("number").first()
        games.append(game_record_moves(by=Actor.command(), game=game, moves=moves))
    return games


def _sizes(url: str) -> dict[str, Any]:
    from django.test import Client

    raw = Client().get(url)
    sent = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert raw.status_code == 200 and sent.status_code == 200, url
    html = raw.content.decode()
    block = html.split('id="pg-data" type="application/json">')[1].split("</script>")[0]
    data = json.loads(block)
    frames = len(json.dumps(data["frames"])) if "frames" in data else 0
    return {
        "raw": len(raw.content),
        "sent": len(sent.content),
        "encoding": sent.get("Content-Encoding", "none"),
        "gzip6": len(gzip.compress(raw.content, compresslevel=6)),
        "data": len(block.encode()),
        "frames": frames,
    }


def _browser() -> tuple[Any, str]:
    driver, profile = chromium(width=390, height=844)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
    )
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", NETWORK)
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": READY_PROBE})
    driver.set_script_timeout(60)
    return driver, profile


def _server() -> Any:
    """The site as WSGI in a thread; whitenoise serves the collected static files."""
    from django.test.testcases import LiveServerThread

    thread = LiveServerThread("localhost", lambda handler: handler, port=0)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    return thread


def _loads(paths: list[str], repeat: int) -> list[dict[str, float]]:
    from selenium.webdriver.support.ui import WebDriverWait

    server = _server()
    browser, profile = _browser()
    results = []
    try:
        for path in paths:
            runs = []
            for _ in range(repeat):
                browser.get("about:blank")
                browser.get(f"http://localhost:{server.port}{path}")
                WebDriverWait(browser, 120, poll_frequency=0.05).until(
                    lambda b: b.execute_script("return window.__bench.ready !== undefined")
                )
                runs.append(browser.execute_async_script(LCP))
            results.append({k: statistics.median(r[k] for r in runs) for k in runs[0]})
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)
        server.terminate()
        server.join(5)
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plies", default="100,300,700", help="target game lengths")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--browser", action="store_true", help="also load the pages in Chromium")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    _setup()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    print(f"commit {commit or '(no git)'} in {ROOT}, load {os.getloadavg()[0]:.2f}")
    games = _games(_records([int(p) for p in args.plies.split(",")], args.players), args.players)
    paths = [f"/games/{game.pk}/" for game in games]
    print(
        "plies | raw bytes | sent (Accept-Encoding: gzip) | gzip -6 of raw | pg-data | "
        "of it positions"
    )
    for game, path in zip(games, paths, strict=True):
        s = _sizes(path)
        print(
            f"{len(game.moves)} | {s['raw']:,} | {s['sent']:,} ({s['encoding']}) | "
            f"{s['gzip6']:,} | {s['data']:,} | {s['frames']:,}"
        )
    if args.browser:
        print(
            f"Chromium, 390x844, CPU /{CPU_SLOWDOWN}, Slow 4G, cold cache, median of {args.repeat}:"
        )
        print("plies | LCP ms | board shown ms | page transferred | with static files")
        for game, load in zip(games, _loads(paths, args.repeat), strict=True):
            print(
                f"{len(game.moves)} | {load['lcp']:.0f} | {load['ready']:.0f} | "
                f"{load['page']:,.0f} | {load['total']:,.0f}"
            )
    print(f"load after {os.getloadavg()[0]:.2f}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
