"""The organiser's night, in Chromium: all results of a round of 11 tables entered
through the results screen with the keyboard only.

Builds a tournament of 23 players in a scratch database (SQLite in
var/bench-organiser.sqlite3 unless DATABASE_URL is set): round 1 is 10 two-player tables
of 3 games and one three-player table of 2 games, 32 games. Serves the site from a
threaded test server in this process, opens the results screen in headless Chromium as
the tournament's director and types each game's pieces out (`31` Enter, `310` Enter),
then counts:

- key presses and clicks (the script's own, one per key sent),
- page loads (the browser's navigation entries, and a marker that a reload would wipe),
- error pages (answers of 400 or more seen by the server, the favicon aside),
- wall time from opening the screen to every game saved (the progress line says
  "32 of 32 games in" and no save is waiting), the browser's own time included.

    .venv/bin/python bench/organiser_browser.py [--players 23] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.chromium import chromium  # noqa: E402 - after the path above

# Answers the server gave, for the error count: (method, path, status).
ANSWERS: list[tuple[str, str, int]] = []
_LOCK = threading.Lock()


def _server() -> Any:
    """A threaded test server with the static files, recording every answer's status."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    class Recording(StaticFilesHandler):
        def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
            def record(status: str, headers: Any, *rest: Any) -> Any:
                with _LOCK:
                    ANSWERS.append(
                        (environ["REQUEST_METHOD"], environ["PATH_INFO"], int(status[:3]))
                    )
                return start_response(status, headers, *rest)

            return super().__call__(environ, record)

    thread = LiveServerThread("localhost", Recording, port=0)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    return thread


def _browser() -> tuple[Any, str]:
    return chromium(width=1280, height=900)


def _round(players: int) -> Any:
    from tests.factories import ClubFactory, UserFactory, tournament_with_players
    from tournaments.desk.services.rounds import round_pair_next, round_publish
    from tournaments.results.services.results import Actor

    stamp = time.time_ns()
    club = ClubFactory(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    tournament = tournament_with_players(players, club=club, slug=f"night-{stamp}")
    director = UserFactory(username=f"director-{stamp}")
    tournament.directors.add(director)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return round_, director


def run_once(players: int) -> dict[str, Any]:
    from django.conf import settings
    from django.test import Client
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    from tournaments.models import Game

    round_, director = _round(players)
    games = list(
        Game.objects.filter(table__round=round_, table__is_bye=False)
        .select_related("table")
        .order_by("table__number", "number")
    )
    seats = {g.table_id: g.table.seats.count() for g in games}
    tables = len({g.table_id for g in games})
    client = Client()
    client.force_login(director)
    server = _server()
    url = f"http://localhost:{server.port}"
    browser, profile = _browser()
    ANSWERS.clear()
    try:
        browser.get(f"{url}/healthz")
        browser.add_cookie(
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "path": "/",
            }
        )
        ANSWERS.clear()
        presses: list[int] = []
        clicks = 0
        started = time.perf_counter()
        browser.get(f"{url}/t/{round_.tournament.slug}/manage/rounds/1/results/")
        WebDriverWait(browser, 30, poll_frequency=0.02).until(
            lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class")
        )
        loaded = time.perf_counter()
        browser.execute_script("window.agonNoReload = 'still here';")
        for game in games:
            n = seats[game.table_id]
            out = [1] * n
            out[(game.number + game.table.number) % n] = 3
            text = "".join(map(str, out)) + Keys.ENTER
            presses.append(len(text))
            ActionChains(browser).send_keys(text).perform()
        typed = time.perf_counter()
        total = len(games)
        # Read in one script call: a live update may replace the progress line between
        # finding it and reading it.
        WebDriverWait(browser, 120, poll_frequency=0.02).until(
            lambda b: b.execute_script(
                "return document.getElementById('round-progress').textContent.trim() === "
                "arguments[0] && !document.querySelector('tr.result-row[data-busy]')",
                f"{total} of {total} games in",
            )
        )
        done = time.perf_counter()
        navigations = browser.execute_script(
            'return performance.getEntriesByType("navigation").length'
        )
        survived = browser.execute_script("return window.agonNoReload") == "still here"
        invalid = len(browser.find_elements(By.CSS_SELECTOR, "tr.result-row[data-invalid]"))
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)
        server.terminate()
        server.join(5)
    saved = Game.objects.filter(table__round=round_, confirmed=True).exclude(status="pending")
    errors = [a for a in ANSWERS if a[2] >= 400 and a[1] != "/favicon.ico"]
    posts = [a for a in ANSWERS if a[0] == "POST"]
    return {
        "tables": tables,
        "games": total,
        "saved": saved.count(),
        "keys": sum(presses),
        "keys_per_game_max": max(presses),
        "keys_per_game_mean": sum(presses) / total,
        "clicks": clicks,
        "page_loads_after_opening": navigations - 1 + (0 if survived else 1),
        "error_pages": len(errors),
        "rows_refused": invalid,
        "saves_posted": len(posts),
        "load_s": loaded - started,
        "typing_s": typed - loaded,
        "wall_s": done - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=23)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scratch = ROOT / "var" / "bench-organiser.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        scratch.parent.mkdir(exist_ok=True)
        scratch.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    call_command("migrate", verbosity=0)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    print(
        f"commit {commit}, load before {os.getloadavg()[0]:.2f}, {settings.DATABASES['default']['ENGINE']}"
    )
    runs = []
    for i in range(args.repeat):
        result = run_once(args.players)
        runs.append(result)
        print(
            f"run {i + 1}: "
            + ", ".join(
                f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in result.items()
            )
        )
    walls = [r["wall_s"] for r in runs]
    met = all(
        r["keys_per_game_max"] <= 4
        and r["page_loads_after_opening"] == 0
        and r["error_pages"] == 0
        and r["wall_s"] < 60
        and r["saved"] == r["games"]
        for r in runs
    )
    print(
        f"wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}); "
        f"load after {os.getloadavg()[0]:.2f}; targets {'met' if met else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
