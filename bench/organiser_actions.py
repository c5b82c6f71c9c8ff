"""The organiser's actions on a big Swiss in round 6, through HTTP as the pages do them.

Production-style: gunicorn (gthread workers), PostgreSQL and Redis from DATABASE_URL and
REDIS_URL (bench/organiser_actions.sh starts private ones on loopback), DEBUG off. For
each field size (default 100 and 500 players) a Swiss is built through the services:
rounds 1-5 paired, published, every game entered and the round closed. Then, as the
tournament's director with a logged-in session, the bench times the requests the
organiser's pages send:

- pair round 6 (the manage page's form post),
- publish it,
- save one game's result (the results screen's background save, answered with the row),
- render the manage page and the results screen (GET),
- close round 6 (its other results entered through the services first).

Repeatable actions run `--repeat` times (the state is put back through the services
between two runs: round deleted, unpublished or reopened) and the median is reported.
The server counts each request's SQL statements (bench/querycount.py, loaded only by
this bench's gunicorn); the counts must not grow with the number of players.

    bash bench/organiser_actions.sh [--players 100,500] [--repeat 5] [--only manage,results]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"

from bench.api_load import wait_ready  # noqa: E402 - the same gunicorn, the same wait

TARGETS_MS = {"pair": 1000.0}
OTHER_TARGET_MS = 150.0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def enter_round(round_: Any, by: Any, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Every pending game of the round a result, through the result service."""
    from tournaments.models import Game
    from tournaments.results.services.results import game_record_out

    games = Game.objects.filter(table__round=round_, status=Game.Status.PENDING).select_related(
        "table"
    )
    for game in games:
        if game.pk in skip or game.table.is_bye:
            continue
        seats = game.table.seats.count()
        out = [3] + [game.pk % 3] * (seats - 1)
        game_record_out(game=game, out=out, finished=True, by=by)


def build(players: int, rounds: int) -> dict[str, Any]:
    """A Swiss of `players`, rounds 1..`rounds` played and closed through the services."""
    from django.contrib.auth import get_user_model

    from tournaments.core.actor import Actor
    from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
    from tournaments.models import Club, Entry, Player, Tournament

    stamp = time.time_ns()
    club = Club.objects.create(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    director = get_user_model().objects.create(username=f"td-{stamp}")
    tournament = Tournament.objects.create(
        club=club,
        name=f"Bench {players}",
        slug=f"bench-swiss-{players}-{stamp}",
        rounds_planned=rounds + 3,
        published=True,
    )
    tournament.directors.add(director)
    people = Player.objects.bulk_create(Player(club=club, name=f"P{i}") for i in range(players))
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, seed=i + 1, rating=1500 + (i * 37) % 600 - 300)
        for i, p in enumerate(people)
    )
    by = Actor.director(director)
    for _number in range(1, rounds + 1):
        round_ = round_pair_next(tournament=tournament, by=by)
        round_publish(round=round_, by=by)
        enter_round(round_, by)
        round_close(round=round_, by=by)
    return {"tournament": tournament, "director": director, "by": by}


class Session:
    """A logged-in director's browser, reduced to its cookies and one connection."""

    def __init__(self, port: int, director: Any) -> None:
        from django.conf import settings
        from django.test import Client

        client = Client(HTTP_HOST=HOST)
        client.force_login(director, backend="django.contrib.auth.backends.ModelBackend")
        self.csrf = secrets.token_hex(16)  # a 32-character secret, as Django's cookie holds
        self.cookie = (
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}; "
            f"{settings.CSRF_COOKIE_NAME}={self.csrf}"
        )
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, fragment: bool = False
    ) -> dict[str, Any]:
        headers = {"Host": HOST, "Cookie": self.cookie}
        body = None
        if form is not None:
            body = urlencode({"csrfmiddlewaretoken": self.csrf, **form})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if fragment:
            # As the page's htmx does: the answer is the game's row, not a redirect.
            headers["HX-Request"] = "true"
        try:
            start = time.perf_counter()
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # gunicorn closes a kept-alive connection left idle for its keep-alive time
            # (the bench enters the round's other results in between): open a new one.
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
            start = time.perf_counter()
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        content = response.read()
        ms = (time.perf_counter() - start) * 1000
        return {
            "status": response.status,
            "ms": ms,
            "queries": int(response.getheader("X-Query-Count") or -1),
            "sql_ms": float(response.getheader("X-Query-Ms") or -1),
            "bytes": len(content),
            "editor": b'id="editor"' in content,
            "location": response.getheader("Location") or "",
        }


def check(answer: dict[str, Any], status: int, what: str) -> None:
    if answer["status"] != status:
        raise SystemExit(f"{what}: HTTP {answer['status']} (expected {status}): {answer}")


ACTIONS = ("pair", "paired", "publish", "save", "manage", "results", "close")


def measure(
    port: int, world: dict[str, Any], repeat: int, only: frozenset[str] = frozenset(ACTIONS)
) -> dict[str, list[dict[str, Any]]]:
    from tournaments.desk.services.rounds import round_reopen, round_unpublish
    from tournaments.desk.services.tournaments import round_delete
    from tournaments.models import Game, Round

    tournament, by = world["tournament"], world["by"]
    slug = tournament.slug
    session = Session(port, world["director"])
    from django.urls import reverse

    manage = reverse("tournament-manage", args=[slug])
    results: dict[str, list[dict[str, Any]]] = {}

    def run(name: str, answer: dict[str, Any]) -> None:
        results.setdefault(name, []).append(answer)

    def times(action: str) -> int:
        # An action left out of --only still runs once (the later ones need its state)
        # but is not reported.
        return repeat if action in only else 1

    def keep(action: str, name: str, answer: dict[str, Any]) -> None:
        if action in only:
            run(name, answer)

    session.request("GET", manage)  # warm the worker (templates, first connection)
    # Pair round 6: the round is deleted again between two runs (not timed).
    for i in range(times("pair")):
        answer = session.request("POST", f"{manage}rounds/pair/", {})
        check(answer, 302, "pair")
        round_ = Round.objects.get(tournament=tournament, number=6)
        keep("pair", "pair round 6", answer)
        if i < times("pair") - 1:
            round_delete(round=round_, by=by)
    round_ = Round.objects.get(tournament=tournament, number=6)
    # The page the organiser lands on after pairing: the tables, the swap and the
    # pairing editor (a "move to" for each of the 500 players). Nothing later needs it.
    for _ in range(repeat if "paired" in only else 0):
        answer = session.request("GET", manage)
        check(answer, 200, "manage page, round paired")
        if not answer["editor"]:
            raise SystemExit("manage page, round paired: no pairing editor on it")
        keep("paired", "manage page, round paired (GET)", answer)
    for i in range(times("publish")):
        answer = session.request("POST", f"{manage}rounds/6/publish/", {})
        check(answer, 302, "publish")
        round_.refresh_from_db()
        if round_.status != Round.Status.PUBLISHED:
            raise SystemExit("publish: the round is not published (the page said why)")
        keep("publish", "publish", answer)
        if i < times("publish") - 1:
            round_unpublish(round=round_, by=by)
    games = list(
        Game.objects.filter(table__round=round_, table__is_bye=False)
        .select_related("table")
        .order_by("table__number", "number")[: repeat + 1]
    )
    saved: set[int] = set()
    for game in games[: times("save")]:
        seats = game.table.seats.count()
        answer = session.request(
            "POST",
            f"{manage}rounds/6/results/{game.pk}/",
            {"version": str(game.version), "out": " ".join(["3"] + ["1"] * (seats - 1))},
            fragment=True,
        )
        check(answer, 200, "save one result")
        game.refresh_from_db()
        if game.status != Game.Status.FINISHED:
            raise SystemExit("save one result: the game has no result")
        saved.add(game.pk)
        keep("save", "save one game's result", answer)
    for _ in range(times("manage")):
        answer = session.request("GET", manage)
        check(answer, 200, "manage page")
        keep("manage", "manage page (GET)", answer)
    for _ in range(times("results")):
        answer = session.request("GET", f"{manage}rounds/6/results/")
        check(answer, 200, "results screen")
        keep("results", "results screen (GET)", answer)
    if "close" not in only:
        return results  # nothing after closing needs it
    enter_round(round_, by, skip=saved)
    for i in range(times("close")):
        answer = session.request("POST", f"{manage}rounds/6/close/", {})
        check(answer, 302, "close")
        round_.refresh_from_db()
        if round_.status != Round.Status.CLOSED:
            raise SystemExit("close: the round is not closed (the page said why)")
        keep("close", "close round 6", answer)
        if i < times("close") - 1:
            round_reopen(round=round_, by=by)
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", default="100,500", help="field sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--only",
        default=",".join(ACTIONS),
        help=f"actions to report, comma-separated, of {','.join(ACTIONS)} (the others "
        "still run once, untimed, where a later action needs their state)",
    )
    args = parser.parse_args()
    only = frozenset(a.strip() for a in args.only.split(",") if a.strip())
    if not only or not only <= set(ACTIONS):
        raise SystemExit(f"--only: choose from {','.join(ACTIONS)}")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("needs DATABASE_URL (PostgreSQL): bash bench/organiser_actions.sh")
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("needs REDIS_URL: bash bench/organiser_actions.sh")
    tmp = Path(tempfile.mkdtemp(prefix="agon-organiser."))
    os.environ.update(
        DEBUG="false",
        # The pages need the hashed static files' manifest, as in production.
        STATIC_ROOT=str(tmp / "static"),
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="false",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    sizes = [int(s) for s in args.players.split(",")]
    worlds = {}
    for n in sizes:
        start = time.perf_counter()
        worlds[n] = build(n, 5)
        print(f"built {n} players, rounds 1-5 closed, in {time.perf_counter() - start:.1f} s")

    port = free_port()
    log = open(tmp / "gunicorn.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(args.workers),
            "--worker-class",
            "gthread",
            "--threads",
            "1",
            "--keep-alive",
            "30",
            "--timeout",
            "120",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "bench.querycount"},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    figures: dict[int, dict[str, Any]] = {}
    try:
        wait_ready(port, time.monotonic() + 60)
        for n in sizes:
            results = measure(port, worlds[n], args.repeat, only)
            figures[n] = {
                name: {
                    "median_ms": round(statistics.median(a["ms"] for a in answers), 1),
                    "min_ms": round(min(a["ms"] for a in answers), 1),
                    "max_ms": round(max(a["ms"] for a in answers), 1),
                    "queries": sorted({a["queries"] for a in answers}),
                    "sql_ms": round(statistics.median(a["sql_ms"] for a in answers), 1),
                    "kb": round(statistics.median(a["bytes"] for a in answers) / 1024),
                    "runs": len(answers),
                }
                for name, answers in results.items()
            }
            print(f"{n} players: {json.dumps(figures[n])}", flush=True)
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
        errors = (tmp / "gunicorn.log").read_text(errors="replace").strip()
        if errors:
            print(f"gunicorn log (tail):\n{errors[-3000:]}", file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)

    names = list(figures[sizes[0]])
    header = "| action | target | " + " | ".join(
        f"{n} players: median (min–max), queries" for n in sizes
    )
    print("\nSUMMARY\n" + header + " | met |")
    print("|" + " --- |" * (3 + len(sizes)))
    for name in names:
        target = TARGETS_MS.get(name.split()[0], OTHER_TARGET_MS)
        cells = []
        met = True
        for n in sizes:
            f = figures[n][name]
            cells.append(
                f"{f['median_ms']:.0f} ms ({f['min_ms']:.0f}–{f['max_ms']:.0f}), "
                f"{'/'.join(map(str, f['queries']))} q (SQL {f['sql_ms']:.0f} ms)"
            )
            met = met and f["median_ms"] <= target
        flat = len({tuple(figures[n][name]["queries"]) for n in sizes}) == 1
        verdict = ("met" if met else "MISSED") + ("" if flat else "; queries GROW")
        print(f"| {name} | ≤ {target:.0f} ms | " + " | ".join(cells) + f" | {verdict} |")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
