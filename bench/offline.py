"""The venue without signal (issue 25, "Measure") in headless Chromium, in one run:

1. The browser engine (games/static/games/pentagame.js) in Chromium beside the Python
   engine in this process, over bench/engine_js.py's corpus (--games random legal games
   of each playable variant, seeded): replay from the text (plies/s), all legal moves
   (positions/s, int codes and Move objects), the board payload (positions/s). Each side
   is timed by its own wall clock (the page's performance.now(), Python's perf_counter),
   best of --repeat; the CPU time of each side is read too (this process's; the
   browser's whole process tree from /proc) and the ratio given both ways.
2. A tap on the recording board (a player's link, a live 2-player game) to the move
   drawn: --taps plies of a random legal game tapped as a player would (piece, target,
   the block stops, a choice button), online and then offline. The time runs from the
   `click` event of the ply's last tap (its timeStamp) to the first frame after the
   move is in the move list (requestAnimationFrame, then a task: the frame was
   produced). Requests counted from the DevTools protocol's Network events (Chromium's
   performance log) and at the server: those begun between the tap and the frame, and
   all per ply by kind. Online the page waits for each ply's save to be answered before
   the next tap (a player takes seconds); offline it does not.
3. Sync after reconnecting: --sync plies of several live games queued offline through
   offline_queue.js's own `enqueue` in the board page (the body, key, headers and batch
   door board.js gives a ply), then the signal restored: time until the queue is empty, the
   requests (DevTools and server), and that the server stored each ply once (Ply rows,
   the games' records, one idempotency key per item, every item answered "saved").

The signal is cut as tests/browser/test_offline.py cuts it: the DevTools network
conditions (offline) for the page, and the server dropping every connection unanswered
(the service worker's own fetches are not under the page's conditions).

Served by Django's threaded live server in this process (static files included, DEBUG
as configured); PostgreSQL and Redis from DATABASE_URL and REDIS_URL
(bench/offline.sh starts private ones), else a scratch SQLite file and memory layers.

    bash bench/offline.sh [--games 10] [--repeat 3] [--taps 40] [--sync 1000] [--alone] [--sync-only]

--alone queues the synced plies without their batch door (one request per ply, as before
issue 44): the anchor for the batch door's figure on the same server.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_P95_MS = 50.0
CLK = os.sysconf("SC_CLK_TCK")


# --- the server ---------------------------------------------------------------------


class Server:
    """Django's threaded live server (static files served), counting every request that
    arrives, and dropping each unanswered while `off` (no signal)."""

    def __init__(self) -> None:
        from django.contrib.staticfiles.handlers import StaticFilesHandler
        from django.core.servers import basehttp
        from django.test.testcases import LiveServerThread

        self.off = False
        self.arrived: list[tuple[str, str, bool]] = []  # method, path, dropped
        self.answered: list[tuple[str, str, float]] = []  # method, path, seconds
        self.lock = threading.Lock()
        server = self
        answer = basehttp.WSGIRequestHandler.handle_one_request

        def handle_one_request(handler: Any) -> None:
            # Read the request line first: a connection closed without one is no request.
            handler.raw_requestline = handler.rfile.readline(65537)
            if not handler.raw_requestline:
                handler.close_connection = True
                return
            parts = handler.raw_requestline.decode("latin-1").split()
            method, path = (parts + ["", ""])[:2]
            with server.lock:
                server.arrived.append((method, path, server.off))
            if server.off:
                handler.close_connection = True  # closed unanswered: a network error
                return
            if not handler.parse_request():
                return
            wsgi = basehttp.ServerHandler(
                handler.rfile, handler.wfile, handler.get_stderr(), handler.get_environ()
            )
            wsgi.request_handler = handler  # as Django's: for logging and closing
            begun = time.perf_counter()
            wsgi.run(handler.server.get_app())
            with server.lock:
                server.answered.append((method, path, time.perf_counter() - begun))

        # The answer as Django's own handle_one_request gives it, once the line is read.
        self._original = answer
        basehttp.WSGIRequestHandler.handle_one_request = handle_one_request
        self.thread = LiveServerThread("localhost", StaticFilesHandler, port=0)
        self.thread.daemon = True
        self.thread.start()
        self.thread.is_ready.wait()
        if self.thread.error:
            raise self.thread.error
        self.url = f"http://localhost:{self.thread.port}"

    def take(self) -> list[tuple[str, str, bool]]:
        with self.lock:
            out, self.arrived = self.arrived, []
        return out

    def post_ms(self) -> list[float]:
        """Milliseconds the server took for each ply POST since the last call."""
        with self.lock:
            out, self.answered = self.answered, []
        return [1000 * s for m, p, s in out if kind(m, p) in ("ply POST", "batch POST")]

    def settle(self, driver: Any, url: str) -> None:
        """Wait until the service worker keeps the page (as tests/browser/test_offline.py's
        `kept_by_the_worker`) and has stopped fetching static files for its cache."""
        until(lambda: driver.execute_async_script(KEPT, url), 30, 0.1)
        quiet, end = time.monotonic(), time.monotonic() + 20
        while time.monotonic() - quiet < 1.0 and time.monotonic() < end:
            time.sleep(0.25)
            if any(kind(m, p) == "static" for m, p, _ in self.take()):
                quiet = time.monotonic()

    def stop(self) -> None:
        from django.core.servers import basehttp

        basehttp.WSGIRequestHandler.handle_one_request = self._original
        self.thread.terminate()
        self.thread.join(5)


KEPT = """
const [url, done] = arguments;
caches.open("agon-pages-v1")
  .then((cache) => cache.match(url, {ignoreVary: true}))
  .then((found) => done(Boolean(found) && Boolean(navigator.serviceWorker.controller)))
  .catch(() => done(false));
"""

# --- the browser ----------------------------------------------------------------------


def chromium_logging_network() -> tuple[Any, str]:
    """bench/chromium.py's Chromium, with the DevTools Network events in its
    performance log (how the requests are counted)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="agon-bench-")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True})
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_script_timeout(600)
    driver.set_page_load_timeout(60)
    return driver, profile


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of `root` and every process below it, from /proc."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / CLK
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo.extend(p for p, parent in parents.items() if parent == pid)
    return total


class Network:
    """Requests the page sent, from the DevTools Network events in the performance log."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def drain(self) -> list[dict[str, Any]]:
        """Requests since the last drain: url, method, wall (epoch seconds), failed."""
        sent: dict[str, dict[str, Any]] = {}
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message.get("method"), message.get("params", {})
            if method == "Network.requestWillBeSent":
                request = params["request"]
                # A redirect reuses the id: each hop is a request of its own.
                rid = params["requestId"] + ("+" if params["requestId"] in sent else "")
                sent[rid] = {
                    "url": request["url"],
                    "method": request["method"],
                    "wall": params.get("wallTime", 0.0),
                    "failed": "",
                }
            elif method == "Network.loadingFailed" and params["requestId"] in sent:
                sent[params["requestId"]]["failed"] = params.get("errorText", "failed")
            elif method == "Network.webSocketCreated":
                sent[params["requestId"]] = {
                    "url": params["url"],
                    "method": "WS",
                    "wall": time.time(),
                    "failed": "",
                }
        return list(sent.values())


def kind(method: str, url: str) -> str:
    path = url.split("://", 1)[-1].split("/", 1)[-1]
    path = "/" + path.split("?", 1)[0]
    if path == "/sw.js":
        # The browser's own update check of the service worker, run again at each of
        # the worker's fetch events while the last check failed (offline).
        return "worker update"
    if "/static/" in path or path.endswith((".js", ".css", ".ico", ".webmanifest")):
        return "static"
    if method == "POST" and "/record/" in path:
        return "ply POST"
    if method == "POST" and path == "/games/batch/":
        return "batch POST"
    if path.endswith("/state/"):
        return "state GET"
    if path.startswith("/games/position"):
        return "position GET"
    if method == "WS" or path.startswith("/ws/"):
        return "socket"
    return f"{method} other"


def set_signal(driver: Any, server: Server, on: bool) -> None:
    """The two halves of tests/browser/test_offline.py's `no_signal`."""
    server.off = not on
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": not on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


# --- 1. the engines ---------------------------------------------------------------------

ENGINE_SETUP = """
const [url, records, wanted, wantedPayloads, done] = arguments;
import(url).then((engine) => {
  const { Position } = engine;
  function spread(limit) {
    const total = records.reduce((n, r) => n + r.moves.length, 0);
    const step = Math.max(1, Math.floor(total / limit));
    const out = [];
    let k = 0;
    for (const rec of records) {
      const game = Position.start(rec.players, rec.variant);
      for (const text of rec.moves) {
        if (k % step === 0 && out.length < limit) out.push(game.copy());
        game.apply(text);
        k += 1;
      }
    }
    return out;
  }
  window.benchEngine = { engine, records, positions: spread(wanted), payloads: spread(wantedPayloads) };
  done({ positions: window.benchEngine.positions.length, payloads: window.benchEngine.payloads.length });
}).catch((error) => done({ error: String(error) }));
"""

# The same work as bench/engine_js.mjs, timed by the page's clock, `repeat` runs.
ENGINE_RUN = """
const [what, repeat] = arguments;
const { engine, records, positions, payloads } = window.benchEngine;
const work = {
  replay() {
    let plies = 0;
    for (const rec of records) {
      const res = engine.replay(rec);
      if (!res.ok) throw new Error(`corpus game is illegal: ${JSON.stringify(res.error)}`);
      plies += res.plies;
    }
    return plies;
  },
  codes() { let n = 0; for (const g of positions) n += g.legalCodes().length; return n; },
  moves() { let n = 0; for (const g of positions) n += g.legalMoves().length; return n; },
  payload() {
    let n = 0;
    for (const g of payloads) { engine.positionJSON(g.state()); n += engine.legalEntries(g).length; }
    return n;
  },
}[what];
const times = [];
let count = 0;
for (let i = 0; i < repeat; i++) {
  const start = performance.now();
  count = work();
  times.push((performance.now() - start) / 1000);
}
return { count, times };
"""


def engines(driver: Any, server: Server, args: argparse.Namespace) -> dict[str, Any]:
    from bench.engine_js import spread
    from games.pentagame.movegen import legal_codes, legal_moves
    from games.pentagame.notation import parse_move_cached
    from games.pentagame.playout import random_game
    from games.pentagame.replay import replay
    from games.pentagame.rules import PLAYABLE_VARIANTS
    from games.pictures.pentagame import _legal, _position

    records = [
        {"players": p, "variant": v, "moves": random_game(p, v, args.seed + i, args.max_plies)}
        for p, v in PLAYABLE_VARIANTS
        for i in range(args.games)
    ]
    total = sum(len(r["moves"]) for r in records)
    games = spread(records, args.positions)
    boards = spread(records, args.payloads)

    def replay_all() -> int:
        parse_move_cached.cache_clear()  # as bench/engine_js.py: no warm parse cache
        plies = 0
        for rec in records:
            res = replay(rec)
            assert res.ok, res.error
            plies += res.plies
        return plies

    def payload_all() -> int:
        n = 0
        for game in boards:
            state = game.state()
            _position(state)
            n += len(_legal(state))
        return n

    python_work = {
        "replay": replay_all,
        "codes": lambda: sum(len(legal_codes(g)) for g in games),
        "moves": lambda: sum(len(legal_moves(g)) for g in games),
        "payload": payload_all,
    }
    driver.get(f"{server.url}/healthz")
    setup = driver.execute_async_script(
        ENGINE_SETUP,
        f"{server.url}/static/games/pentagame.js",
        records,
        args.positions,
        args.payloads,
    )
    if "error" in setup:
        raise SystemExit(f"pentagame.js did not load in Chromium: {setup['error']}")
    assert setup == {"positions": len(games), "payloads": len(boards)}, setup
    browser_root = driver.service.process.pid
    out: dict[str, Any] = {
        "records": len(records),
        "plies": total,
        "positions": len(games),
        "payloads": len(boards),
        "variants": len(PLAYABLE_VARIANTS),
    }
    for what, work in python_work.items():
        # Python: wall and CPU per run, best of `repeat`.
        walls, cpus, count = [], [], 0
        for _ in range(args.repeat):
            gc.collect()
            w, c = time.perf_counter(), time.process_time()
            count = work()
            cpus.append(time.process_time() - c)
            walls.append(time.perf_counter() - w)
        # Chromium: the page's clock per run; the browser's CPU over the `repeat` runs.
        before = tree_cpu(browser_root)
        js = driver.execute_script(ENGINE_RUN, what, args.repeat)
        js_cpu = (tree_cpu(browser_root) - before) / args.repeat
        assert js["count"] == count, f"{what}: Chromium counted {js['count']}, Python {count}"
        out[what] = {
            "count": count,
            "py_wall": min(walls),
            "py_wall_median": statistics.median(walls),
            "py_cpu": min(cpus),
            "js_wall": min(js["times"]),
            "js_wall_median": statistics.median(js["times"]),
            "js_cpu_mean": js_cpu,
        }
    return out


# --- 2. taps -----------------------------------------------------------------------------

INSTRUMENT = """
// The ply's last tap (a click's timeStamp) to the first frame with the move in the list.
const bench = (window.benchTaps = { last: 0, draws: [] });
document.addEventListener("click", (event) => { bench.last = event.timeStamp; }, true);
const list = document.getElementById("pg-moves");
let shown = list.children.length;
new MutationObserver(() => {
  const n = list.children.length;
  if (n > shown) {
    const tap = bench.last;
    const dom = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => bench.draws.push({
        n, tap, dom, frame: performance.now(), origin: performance.timeOrigin,
      });
      channel.port2.postMessage(0);
    });
  }
  shown = n;
}).observe(list, { childList: true });
const queue = performance.getEntriesByType("resource").map((e) => e.name)
  .find((name) => name.includes("/agon/offline_queue"));
bench.queueUrl = queue;
return queue;
"""

QUEUE_STATES = """
const [url, scope, done] = arguments;
import(url).then((q) => q.list(scope)).then((items) => {
  const states = {};
  for (const item of items) states[item.state] = (states[item.state] ?? 0) + 1;
  done(states);
}).catch((error) => done({ error: String(error) }));
"""


def tap_ply(driver: Any, text: str) -> None:
    """Tap one move as a player would, as tests/browser/test_board.py's `tap_move` does:
    piece, target (and the choice when two moves share them), then the block stops."""
    from selenium.webdriver.common.by import By

    from games.pentagame import format_move, parse_move

    def stop(stop_id: int) -> Any:
        return driver.find_element(By.CSS_SELECTOR, f'.pg-stop[data-stop="{stop_id}"]')

    move = parse_move(text)
    if move.kind == "pass":
        driver.find_element(By.ID, "pg-pass").click()
        return
    stop(move.frm).click()
    if move.kind != "z":
        stop(move.to).click()
        bare = format_move(move._replace(black=None, grey=None, grey_from=None))
        choice = driver.find_element(By.ID, "pg-choice")
        if choice.is_displayed():
            choice.find_element(By.XPATH, f'.//button[text()="{bare}"]').click()
    if move.black is not None:
        stop(move.black).click()
    if move.grey_from is not None:
        stop(move.grey_from).click()
    if move.grey is not None:
        stop(move.grey).click()


def p95(values: list[float]) -> float:
    """The 95th percentile of sorted `values`, nearest rank."""
    return values[math.ceil(0.95 * len(values)) - 1]


def until(condition: Any, timeout: float = 30.0, every: float = 0.02) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError("the condition did not hold in time")
        time.sleep(every)


def taps(
    driver: Any, server: Server, net: Network, game: Any, url: str, plies: list[str], online: bool
) -> dict[str, Any]:
    from selenium.webdriver.common.by import By

    from tournaments.models import Ply

    driver.get(url)
    until(lambda: "to move" in driver.find_element(By.ID, "pg-status").text)
    queue_url = driver.execute_script(INSTRUMENT)
    server.settle(driver, url)  # the page's start-up requests out of the way
    net.drain()
    server.take()
    server.post_ms()
    if not online:
        set_signal(driver, server, on=False)
    per_ply: list[dict[str, Any]] = []
    all_requests: list[dict[str, Any]] = []
    for n, text in enumerate(plies, start=1):
        tap_ply(driver, text)
        until(lambda n=n: driver.execute_script("return window.benchTaps.draws.length") >= n)
        shown = driver.execute_script(
            "const li = document.querySelectorAll('#pg-moves li');"
            "return li.length ? li[li.length - 1].textContent : ''"
        )
        assert shown == text, f"ply {n}: the board drew {shown!r}, not {text!r}"
        if online:
            until(lambda n=n: Ply.objects.filter(game=game).count() >= n)
            until(
                lambda: (
                    driver.execute_async_script(QUEUE_STATES, queue_url, f"game-{game.pk}").get(
                        "waiting", 0
                    )
                    == 0
                )
            )
        else:
            time.sleep(0.05)  # a player's pause; the queue's failed send has happened
        draw = driver.execute_script("return window.benchTaps.draws[arguments[0] - 1]", n)
        requests = net.drain()
        all_requests.extend(requests)
        start = (draw["origin"] + draw["tap"]) / 1000
        dom = (draw["origin"] + draw["dom"]) / 1000
        end = (draw["origin"] + draw["frame"]) / 1000
        per_ply.append(
            {
                "ms": draw["frame"] - draw["tap"],
                "dom_ms": draw["dom"] - draw["tap"],
                # Begun before the move was in the page (what drawing could have waited
                # for), and before its frame (the ply's own save may start in between).
                "before_dom": [r for r in requests if start <= r["wall"] <= dom],
                "in_window": [r for r in requests if start <= r["wall"] <= end],
            }
        )
    time.sleep(0.5)
    all_requests.extend(net.drain())  # the last ply's events (a failed send's end)
    arrived = server.take()
    post_ms = server.post_ms()
    stored = Ply.objects.filter(game=game).count()
    synced_s = None
    if not online:
        # The 40 plies typed offline, sent when the signal returns: each stored once.
        started = time.perf_counter()
        set_signal(driver, server, on=True)
        until(lambda: Ply.objects.filter(game=game).count() >= len(plies), 60, 0.05)
        synced_s = time.perf_counter() - started
        game.refresh_from_db()
        assert list(game.moves) == plies, "the synced record differs from the taps"
        assert sorted(Ply.objects.filter(game=game).values_list("number", flat=True)) == list(
            range(1, len(plies) + 1)
        )
    times = sorted(p["ms"] for p in per_ply)
    doms = sorted(p["dom_ms"] for p in per_ply)
    return {
        "plies": len(plies),
        "median": statistics.median(times),
        "p95": p95(times),
        "max": times[-1],
        "dom_median": statistics.median(doms),
        "dom_p95": p95(doms),
        "before_dom": sum(len(p["before_dom"]) for p in per_ply),
        "in_window": sum(len(p["in_window"]) for p in per_ply),
        "in_window_kinds": Counter(
            kind(r["method"], r["url"]) for p in per_ply for r in p["in_window"]
        ),
        "page_requests": Counter(kind(r["method"], r["url"]) for r in all_requests),
        "page_failed": sum(1 for r in all_requests if r["failed"]),
        "server": Counter(kind(m, p) for m, p, _ in arrived),
        "server_total": len(arrived),
        "stored_during": stored,
        "server_post_ms": statistics.median(post_ms) if post_ms else None,
        "synced_s": synced_s,
    }


# --- 3. sync ------------------------------------------------------------------------------

ENQUEUE = """
const [url, items, csrf, useBatch, done] = arguments;
// As board.js queues a ply (queueSave): its batch door is the page's (--alone: none).
const door = JSON.parse(document.getElementById("pg-data").textContent).urls.batch ?? null;
const batch = useBatch ? door : null;
import(url).then(async (q) => {
  for (const it of items) {
    await q.enqueue({
      url: it.url,
      body: JSON.stringify({ ply: it.ply, move: it.move, key: it.key }),
      type: "application/json",
      headers: { "X-CSRFToken": csrf },
      group: it.group,
      scope: it.group,
      kind: "ply",
      label: `${it.ply}. ${it.move}`,
      key: it.key,
      batch,
    });
  }
  done({ ok: true });
}).catch((error) => done({ error: String(error) }));
"""

WATCH = """
const [url, done] = arguments;
import(url).then((q) => {
  const bench = (window.benchSync = { answered: 0, last: 0, online: null, states: {} });
  addEventListener("online", () => { bench.online = performance.now(); });
  q.onChange(({ item }) => {
    if (item.state === "waiting" || !item.group.startsWith("game-")) return;
    bench.answered += 1;
    bench.last = performance.now();
    bench.states[item.state] = (bench.states[item.state] ?? 0) + 1;
  });
  done(true);
});
"""


def sync(
    driver: Any,
    server: Server,
    net: Network,
    page_url: str,
    games: list[tuple[Any, str, list[str]]],
    batch: bool = True,
) -> dict[str, Any]:
    from selenium.webdriver.common.by import By

    from tournaments.models import IdempotencyKey, Ply

    driver.get(page_url)
    until(lambda: "to move" in driver.find_element(By.ID, "pg-status").text)
    queue_url = driver.execute_script(INSTRUMENT)
    csrf = driver.execute_script(
        "return document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? ''"
    )
    driver.execute_async_script(WATCH, queue_url)
    server.settle(driver, page_url)
    server.take()
    net.drain()
    set_signal(driver, server, on=False)
    items = []
    for game, save_url, moves in games:
        for n, move in enumerate(moves, start=1):
            items.append(
                {
                    "url": save_url,
                    "ply": n,
                    "move": move,
                    "key": f"bench{game.pk}x{n}x{time.time_ns()}",
                    "group": f"game-{game.pk}",
                }
            )
    queued_start = time.perf_counter()
    result = driver.execute_async_script(ENQUEUE, queue_url, items, csrf, batch)
    if "error" in result:
        raise SystemExit(f"enqueue failed: {result['error']}")
    queued_s = time.perf_counter() - queued_start
    until(
        lambda: (
            driver.execute_async_script(QUEUE_STATES, queue_url, None).get("waiting", 0)
            >= len(items)
        )
    )
    waiting = driver.execute_async_script(QUEUE_STATES, queue_url, None).get("waiting", 0)
    time.sleep(1.0)
    offline_requests = net.drain()
    offline_arrived = server.take()
    assert Ply.objects.filter(game__in=[g for g, _, _ in games]).count() == 0

    server.post_ms()
    t0 = driver.execute_script("return performance.now()")
    started = time.perf_counter()
    set_signal(driver, server, on=True)
    until(
        lambda: driver.execute_script("return window.benchSync.answered") >= len(items),
        480,
        0.1,
    )
    wall_s = time.perf_counter() - started
    bench = driver.execute_script("return window.benchSync")
    time.sleep(1.0)  # anything sent after the last answer would show here
    requests = net.drain()
    arrived = server.take()
    post_ms = sorted(server.post_ms())
    keys = [it["key"] for it in items]
    stored_once = True
    for game, _, moves in games:
        game.refresh_from_db()
        numbers = list(Ply.objects.filter(game=game).values_list("number", flat=True))
        stored_once &= list(game.moves) == moves and sorted(numbers) == list(
            range(1, len(moves) + 1)
        )
    plies_stored = Ply.objects.filter(key__in=keys).count()
    keys_stored = IdempotencyKey.objects.filter(key__in=keys).count()
    posts = [r for r in requests if kind(r["method"], r["url"]) in ("ply POST", "batch POST")]
    first_post = min((r["wall"] for r in posts), default=None)
    page_origin = driver.execute_script("return performance.timeOrigin") / 1000
    return {
        "items": len(items),
        "games": len(games),
        "queued_s": queued_s,
        "waiting": waiting,
        "offline_page_requests": len(offline_requests),
        "offline_page_failed": sum(1 for r in offline_requests if r["failed"]),
        "offline_server": len(offline_arrived),
        "offline_server_kinds": Counter(kind(m, p) for m, p, _ in offline_arrived),
        "sync_s": (bench["last"] - t0) / 1000,
        "wall_s": wall_s,
        "online_event_s": None if bench["online"] is None else (bench["online"] - t0) / 1000,
        "first_post_s": None if first_post is None else first_post - (page_origin + t0 / 1000),
        "states": bench["states"],
        "server_post_ms": post_ms,
        "page_requests": Counter(kind(r["method"], r["url"]) for r in requests),
        "page_posts_failed": sum(1 for r in posts if r["failed"]),
        "server": Counter(kind(m, p) for m, p, _ in arrived),
        "plies_stored": plies_stored,
        "keys_stored": keys_stored,
        "stored_once": stored_once and plies_stored == len(items) and keys_stored == len(items),
    }


# --- the run -------------------------------------------------------------------------------


def build(tap_plies: list[str], sync_games: list[list[str]]) -> dict[str, Any]:
    """One tournament, round 1 published: table 1 for the online taps, table 2 for the
    offline taps, one table per synced game (game 1 of each, by seat 1's link)."""
    from django.urls import reverse

    from tests.factories import ClubFactory, tournament_with_players
    from tournaments.desk.services.rounds import round_pair_next, round_publish
    from tournaments.models import Game
    from tournaments.results.services.results import Actor

    stamp = time.time_ns()
    club = ClubFactory(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    tournament = tournament_with_players(
        2 * (2 + len(sync_games)), club=club, slug=f"offline-{stamp}"
    )
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    firsts = list(
        Game.objects.filter(table__round=round_, number=1, table__is_bye=False)
        .select_related("table")
        .order_by("table__number")
    )
    assert all(g.table.seats.count() == 2 for g in firsts), "expected 2-player tables"

    def link(game: Game) -> str:
        token = game.table.seats.get(position=1).report_token
        return reverse("games:record-token", args=[game.pk, token])

    return {
        "online": (firsts[0], link(firsts[0])),
        "offline": (firsts[1], link(firsts[1])),
        "sync": [(g, link(g), moves) for g, moves in zip(firsts[2:], sync_games, strict=True)],
    }


def sync_corpus(total: int, per_game: int, seed: int) -> list[list[str]]:
    """`total` plies of random legal 2-player games, at most `per_game` plies each."""
    from games.pentagame.playout import random_game

    games: list[list[str]] = []
    left, i = total, 0
    while left > 0:
        moves = random_game(2, "standard", seed + 1000 + i, min(per_game, left))
        games.append(moves)
        left -= len(moves)
        i += 1
    return games


def fmt_s(seconds: float | None) -> str:
    return "never" if seconds is None else f"{seconds:.3f} s"


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="engine corpus: games per variant")
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--max-plies", type=int, default=3000)
    ap.add_argument("--positions", type=int, default=10_000)
    ap.add_argument("--payloads", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3, help="engine timings: best of this many")
    ap.add_argument("--taps", type=int, default=40, help="plies tapped online and offline")
    ap.add_argument("--sync", type=int, default=1000, help="plies queued offline, then synced")
    ap.add_argument("--per-game", type=int, default=200, help="synced plies per game at most")
    ap.add_argument(
        "--alone",
        action="store_true",
        help="sync with one request per ply (no batch door: the path before issue 44)",
    )
    ap.add_argument("--sync-only", action="store_true", help="skip parts 1 and 2")
    args = ap.parse_args()

    scratch = ROOT / "var" / "bench-offline.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        scratch.parent.mkdir(exist_ok=True)
        scratch.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from games.pentagame.playout import random_game

    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    # The live server has no sockets (WSGI): the page's tries end in 404s, logged each.
    logging.getLogger("django.request").setLevel(logging.ERROR)
    logging.getLogger("django.server").setLevel(logging.ERROR)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    print(
        f"commit {git('rev-parse', '--short', 'HEAD')} (+ {len(git('status', '--short').splitlines())} "
        f"changed files), load {os.getloadavg()[0]:.2f}, {settings.DATABASES['default']['ENGINE']}, "
        f"Python {platform.python_version()}",
        flush=True,
    )
    tap_plies = random_game(2, "standard", args.seed, args.taps)
    assert len(tap_plies) == args.taps, "the tapped game ended early: change --seed"
    setup = build(tap_plies, sync_corpus(args.sync, args.per_game, args.seed))
    server = Server()
    driver, profile = chromium_logging_network()
    net = Network(driver)
    try:
        version = driver.capabilities.get("browserVersion", "?")
        if not args.sync_only:
            eng = engines(driver, server, args)
            print(
                f"\n1. Engines, Chromium {version} beside Python in this process; corpus: "
                f"{eng['records']} random legal games ({args.games} of each of {eng['variants']} "
                f"variants, seed {args.seed}), {eng['plies']} plies; {eng['positions']} positions "
                f"for legal moves, {eng['payloads']} for the board payload. Wall clock of each "
                f"side, best of {args.repeat} (median); CPU: Python's best, the browser's mean.",
                flush=True,
            )
            print(
                f"{'measure':<34}{'Python':>20}{'JS (Chromium)':>20}{'JS/Py wall':>12}{'JS/Py CPU':>11}"
            )
            for label, key, n in (
                ("replay (plies/s)", "replay", eng["plies"]),
                ("legal moves, int codes (pos/s)", "codes", eng["positions"]),
                ("legal moves, Move objects (pos/s)", "moves", eng["positions"]),
                ("board payload (pos/s)", "payload", eng["payloads"]),
            ):
                r = eng[key]
                py = f"{n / r['py_wall']:,.0f} ({n / r['py_wall_median']:,.0f})"
                js = f"{n / r['js_wall']:,.0f} ({n / r['js_wall_median']:,.0f})"
                cpu = r["py_cpu"] / r["js_cpu_mean"] if r["js_cpu_mean"] else float("nan")
                print(
                    f"{label:<34}{py:>20}{js:>20}{r['py_wall'] / r['js_wall']:>11.1f}x{cpu:>10.1f}x"
                )
            print(
                "  CPU per run: "
                + ", ".join(
                    f"{k} Python {eng[k]['py_cpu']:.3f} s / Chromium {eng[k]['js_cpu_mean']:.3f} s"
                    for k in ("replay", "codes", "moves", "payload")
                ),
                flush=True,
            )

            print(
                f"\n2. A tap to the move drawn, {args.taps} plies each (load {os.getloadavg()[0]:.2f})"
            )
            tap_results = {}
            for mode in ("online", "offline"):
                game, link = setup[mode]
                res = taps(
                    driver, server, net, game, server.url + link, tap_plies, online=mode == "online"
                )
                tap_results[mode] = res
                met = res["p95"] < TARGET_P95_MS and res["before_dom"] == 0
                print(
                    f"  {mode}: tap to frame median {res['median']:.1f} ms, p95 {res['p95']:.1f} ms, "
                    f"max {res['max']:.1f} ms; tap to move in the page (the click's handler done) "
                    f"median {res['dom_median']:.1f} ms, p95 {res['dom_p95']:.1f} ms; requests begun "
                    f"between a tap and the move in the page: {res['before_dom']}, and its frame: "
                    f"{res['in_window']} {dict(res['in_window_kinds'])}; target p95 < "
                    f"{TARGET_P95_MS:.0f} ms and no request: {'met' if met else 'NOT met'}",
                    flush=True,
                )
                print(
                    f"    all requests over the {res['plies']} plies, page (DevTools): "
                    f"{dict(res['page_requests'])}, {res['page_failed']} failed; reached the "
                    f"server: {res['server_total']} {dict(res['server'])}; plies stored meanwhile: "
                    f"{res['stored_during']}"
                    + (
                        f"; the server's time per ply POST, median {res['server_post_ms']:.1f} ms"
                        if res["server_post_ms"] is not None
                        else ""
                    )
                    + (
                        f"; after reconnecting all {res['plies']} stored once in {res['synced_s']:.2f} s"
                        if res["synced_s"] is not None
                        else ""
                    ),
                    flush=True,
                )

        how = "one request per ply" if args.alone else "through the batch door"
        print(f"\n3. Sync after reconnecting, {how} (load {os.getloadavg()[0]:.2f})")
        game, link = setup["offline"]
        s = sync(
            driver,
            server,
            net,
            server.url + link,
            [(g, server.url + u, m) for g, u, m in setup["sync"]],
            batch=not args.alone,
        )
        print(
            f"  {s['items']} plies of {s['games']} games queued offline in {s['queued_s']:.1f} s "
            f"(page requests meanwhile: {s['offline_page_requests']}, "
            f"{s['offline_page_failed']} failed; reached the server: {s['offline_server']} "
            f"{dict(s['offline_server_kinds'])})"
        )
        print(
            f"  signal back -> queue empty: {s['sync_s']:.2f} s in the page "
            f"({s['items'] / s['sync_s']:.0f} items/s; {s['wall_s']:.2f} s seen from here); "
            f"the page's online event after {fmt_s(s['online_event_s'])}, first POST after "
            f"{fmt_s(s['first_post_s'])}"
        )
        ms = s["server_post_ms"]
        if ms:
            print(
                f"  the server's time per POST (a ply, or a batch): median {statistics.median(ms):.1f} ms, "
                f"p95 {p95(ms):.1f} ms, sum {sum(ms) / 1000:.2f} s "
                f"({100 * sum(ms) / 1000 / s['sync_s']:.0f} % of the sync)"
            )
        print(
            f"  outcomes {s['states']}; page requests {dict(s['page_requests'])} "
            f"({s['page_posts_failed']} POSTs failed); at the server {dict(s['server'])}"
        )
        print(
            f"  stored: {s['plies_stored']} ply rows for {s['items']} items, "
            f"{s['keys_stored']} idempotency keys; each once, records equal: "
            f"{'yes' if s['stored_once'] else 'NO'}"
        )
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        server.stop()
    print(
        f"\nload after {os.getloadavg()[0]:.2f}; {time.perf_counter() - started:.0f} s in all",
        flush=True,
    )


if __name__ == "__main__":
    main()
