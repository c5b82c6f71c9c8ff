"""The club's statistics pages (issue 26, item 4; docs/statistics.md) for a small club and
a club with 100,000 recorded games and 500 players, through HTTP as a reader gets them.

Production-style, as bench/organiser_actions.py: gunicorn (gthread), PostgreSQL and Redis
from DATABASE_URL and REDIS_URL (bench/statistics_page.sh starts private ones on
loopback), DEBUG off, the query counter of bench/querycount.py in front. Each club is
built with bulk inserts: club evenings of 40 of its players, four closed rounds each of
3-player tables (two games, clockwise and widdershins) and 2-player tables (three
games); ratings at entry; some draws, unfinished and unplayed games; colours out for
most games, move records for some and live plies for a few. All of a club's events are
in one season (`Season.objects.create`).

For each club the bench asks, as an anonymous reader, the club's, the season's and one
event's statistics page, cold (the cache emptied before each request), warm, and after
one event's result changed (its standings version moved on, the other events' summaries
still cached), and the season's own page (`/clubs/<club>/seasons/<season>/`) where it
exists. The target: each
page ≤ 150 ms warm, queries the same for the small and the big club.

    bash bench/statistics_page.sh [--games 100000] [--players 500] [--repeat 7]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.client
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"

from bench.api_load import wait_ready  # noqa: E402 - the same gunicorn, the same wait
from bench.organiser_actions import free_port  # noqa: E402

TARGET_MS = 150.0
PER_EVENING = 40
ROUNDS = 4
COLOURS = ("w", "b", "r", "y", "g")
BATCH = 5000


def build_club(name: str, games: int, players: int, rng: random.Random) -> dict[str, Any]:
    """A club of `players` whose evenings hold about `games` games, every event in one
    season. Bulk inserts: the data, not the services, is what is measured."""
    from tournaments.models import (
        Club,
        Entry,
        Game,
        Player,
        Ply,
        Round,
        Season,
        Seat,
        Table,
        Tournament,
    )

    stamp = time.time_ns()
    club = Club.objects.create(name=f"{name} {stamp}", slug=f"{name}-{stamp}")
    season = Season.objects.create(
        club=club,
        name="Season",
        slug="season",
        starts_on=dt.date(2020, 1, 1),
        ends_on=dt.date(2030, 12, 31),
    )
    people = Player.objects.bulk_create(
        Player(club=club, name=f"Player {i}") for i in range(players)
    )
    strength = {p.pk: rng.gauss(1500, 200) for p in people}
    per_evening = ROUNDS * 40  # 8 tables of 3 (2 games) and 8 of 2 (3 games) a round
    evenings = max(1, round(games / per_evening))
    events = Tournament.objects.bulk_create(
        Tournament(
            club=club,
            name=f"Evening {i + 1}",
            slug=f"{club.slug}-evening-{i + 1}",
            kind=Tournament.Kind.EVENING,
            status=Tournament.Status.FINISHED,
            published=True,
            date=dt.date(2020, 1, 1) + dt.timedelta(days=7 * i),
            season=season,
        )
        for i in range(evenings)
    )
    field: dict[int, list[Any]] = {}
    entries: list[Any] = []
    for event in events:
        chosen = rng.sample(people, min(PER_EVENING, players))
        field[event.pk] = chosen
        for seed, p in enumerate(chosen, start=1):
            rated = rng.random() < 0.9  # a few newcomers without a rating
            entries.append(
                Entry(
                    tournament=event,
                    player=p,
                    seed=seed,
                    rating=round(strength[p.pk]) if rated else None,
                )
            )
    Entry.objects.bulk_create(entries, batch_size=BATCH)
    entry_of = {
        (e.tournament_id, e.player_id): e.pk for e in Entry.objects.filter(tournament__in=events)
    }
    rounds = Round.objects.bulk_create(
        Round(tournament=event, number=n, status=Round.Status.CLOSED)
        for event in events
        for n in range(1, ROUNDS + 1)
    )
    plan: list[tuple[Any, int, list[Any]]] = []  # (round, table number, players)
    tables: list[Any] = []
    for round_ in rounds:
        order = field[round_.tournament_id][:]
        rng.shuffle(order)
        sizes = [3] * 8 + [2] * 8 if len(order) >= 40 else [2] * (len(order) // 2)
        at = 0
        for number, size in enumerate(sizes, start=1):
            plan.append((round_, number, order[at : at + size]))
            tables.append(Table(round=round_, number=number))
            at += size
    tables = Table.objects.bulk_create(tables, batch_size=BATCH)
    seats: list[Any] = []
    game_rows: list[Any] = []
    live: list[tuple[int, int]] = []  # (index in game_rows, plies) recorded live
    for table, (round_, _number, sitting) in zip(tables, plan, strict=True):
        for position, p in enumerate(sitting, start=1):
            seats.append(
                Seat(
                    table=table,
                    round=round_,
                    entry_id=entry_of[(round_.tournament_id, p.pk)],
                    position=position,
                )
            )
        n = len(sitting)
        for g in range(1, (2 if n == 3 else 3) + 1):
            kind = rng.random()
            out = [rng.randint(0, 2) for _ in range(n)]
            status = Game.Status.FINISHED
            if kind < 0.005:
                status, out = Game.Status.PENDING, [None] * n  # closed before it was played
            elif kind < 0.035:
                status = Game.Status.UNFINISHED
            else:
                weights = [2.718 ** ((strength[p.pk] - 1500) / 200) for p in sitting]
                out[rng.choices(range(n), weights=weights)[0]] = 3
                if rng.random() < 0.05:
                    out = [3] * n  # a draw
            colours = {}
            if status != Game.Status.PENDING and rng.random() < 0.6:
                colours = {
                    str(pos): rng.sample(COLOURS, k) for pos, k in enumerate(out, start=1) if k
                }
            moves: list[str] = []
            if status == Game.Status.FINISHED and rng.random() < 0.3:
                moves = ["W-W1B"] * rng.randint(30, 60 * n)
                if rng.random() < 0.1:
                    live.append((len(game_rows), len(moves)))
            values = out + [None] * (4 - n)
            game_rows.append(
                Game(
                    table=table,
                    number=g,
                    first_position=1 + (g - 1 + round_.number) % n,
                    direction="widdershins" if n == 3 and g == 2 else "clockwise",
                    status=status,
                    out_1=values[0],
                    out_2=values[1],
                    out_3=values[2],
                    out_4=values[3],
                    colours_out=colours,
                    moves=moves,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=BATCH)
    saved = Game.objects.bulk_create(game_rows, batch_size=BATCH)
    plies: list[Any] = []
    start = dt.datetime(2026, 11, 18, 19, 0, tzinfo=dt.UTC)
    for index, count in live:
        game = saved[index]
        seconds = rng.uniform(20, 60)
        for k in range(1, count + 1):
            plies.append(
                Ply(
                    game=game,
                    number=k,
                    move="W-W1B",
                    key=f"{game.pk}-{k}",
                    at=start + dt.timedelta(seconds=k * seconds),
                )
            )
            if len(plies) >= BATCH:
                Ply.objects.bulk_create(plies)
                plies = []
    Ply.objects.bulk_create(plies)
    return {
        "club": club,
        "season": season,
        "event": events[len(events) // 2],
        "games": len(saved),
        "players": players,
        "events": len(events),
        "plies": sum(count for _, count in live),
    }


def get(conn_port: int, path: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection(HOST, conn_port, timeout=300)
    try:
        start = time.perf_counter()
        conn.request("GET", path, headers={"Host": HOST})
        response = conn.getresponse()
        body = response.read()
        ms = (time.perf_counter() - start) * 1000
    finally:
        conn.close()
    if response.status != 200:
        raise SystemExit(f"{path}: HTTP {response.status}")
    return {
        "ms": ms,
        "queries": int(response.getheader("X-Query-Count") or -1),
        "sql_ms": float(response.getheader("X-Query-Ms") or -1),
        "kb": len(body) / 1024,
    }


def pages(world: dict[str, Any]) -> dict[str, str]:
    """The pages measured, by name."""
    from django.urls import NoReverseMatch, reverse

    club, season, event = world["club"], world["season"], world["event"]
    found = {
        "club statistics": reverse("club-statistics", args=[club.slug]),
        "season statistics": reverse("season-statistics", args=[club.slug, season.slug]),
        "event statistics": reverse("tournament-statistics", args=[event.slug]),
    }
    # The season's own page, once it is built.
    with contextlib.suppress(NoReverseMatch):
        found["season page"] = reverse("season-detail", args=[club.slug, season.slug])
    return found


def measure(port: int, world: dict[str, Any], repeat: int, cold_repeat: int) -> dict[str, Any]:
    from django.core.cache import cache
    from django.db.models import F

    from tournaments.models import Tournament

    figures: dict[str, Any] = {}
    for name, path in pages(world).items():
        colds = []
        for _ in range(cold_repeat):
            cache.clear()
            colds.append(get(port, path))
        get(port, path)  # warm the worker's cache entry and the page
        warms = [get(port, path) for _ in range(repeat)]
        # A result of one event changed: its standings version moves on, as the results
        # service moves it (the other events' summaries are still in the cache).
        changed = []
        for _ in range(cold_repeat):
            Tournament.objects.filter(pk=world["event"].pk).update(
                standings_version=F("standings_version") + 1
            )
            changed.append(get(port, path))
        figures[name] = {
            "path": path,
            "cold_ms": round(statistics.median(a["ms"] for a in colds), 1),
            "cold_queries": sorted({a["queries"] for a in colds}),
            "warm_ms": round(statistics.median(a["ms"] for a in warms), 1),
            "warm_min_ms": round(min(a["ms"] for a in warms), 1),
            "warm_max_ms": round(max(a["ms"] for a in warms), 1),
            "warm_queries": sorted({a["queries"] for a in warms}),
            "warm_sql_ms": round(statistics.median(a["sql_ms"] for a in warms), 1),
            "changed_ms": round(statistics.median(a["ms"] for a in changed), 1),
            "changed_queries": sorted({a["queries"] for a in changed}),
            "kb": round(statistics.median(a["kb"] for a in warms)),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000, help="games of the big club")
    parser.add_argument("--players", type=int, default=500, help="players of the big club")
    parser.add_argument("--small-games", type=int, default=480)
    parser.add_argument("--small-players", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=7, help="warm requests per page")
    parser.add_argument("--cold", type=int, default=3, help="cold requests per page")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("needs DATABASE_URL (PostgreSQL): bash bench/statistics_page.sh")
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("needs REDIS_URL: bash bench/statistics_page.sh")
    tmp = Path(tempfile.mkdtemp(prefix="agon-statistics."))
    os.environ.update(
        DEBUG="false",
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
    from django.db import connection

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    rng = random.Random(26)
    worlds = {}
    for label, games, players in (
        ("small", args.small_games, args.small_players),
        ("big", args.games, args.players),
    ):
        start = time.perf_counter()
        worlds[label] = build_club(f"bench-{label}", games, players, rng)
        w = worlds[label]
        print(
            f"built the {label} club: {w['games']:,} games, {w['players']} players, "
            f"{w['events']} events, {w['plies']:,} live plies, in "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

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
            "--timeout",
            "300",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "bench.querycount"},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    figures: dict[str, Any] = {}
    try:
        wait_ready(port, time.monotonic() + 60)
        for label, world in worlds.items():
            figures[label] = measure(port, world, args.repeat, args.cold)
            print(f"{label}: {json.dumps(figures[label])}", flush=True)
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

    small, big = worlds["small"], worlds["big"]
    print(
        f"\nSUMMARY: small club {small['games']:,} games / {small['players']} players, "
        f"big club {big['games']:,} games / {big['players']} players"
    )
    print(
        "| page | target | small: warm (cold), queries warm / cold | big: warm median "
        "(min–max), cold, one event changed; queries warm / cold / changed | met |"
    )
    print("| --- | --- | --- | --- | --- |")
    kinds = ("warm_queries", "cold_queries", "changed_queries")
    for name in figures["big"]:
        s, b = figures["small"][name], figures["big"][name]
        flat = all(s[k] == b[k] for k in kinds)
        met = b["warm_ms"] <= TARGET_MS and s["warm_ms"] <= TARGET_MS
        verdict = ("met" if met else "MISSED") + ("" if flat else "; queries GROW")
        q = " / ".join("/".join(map(str, s[k])) for k in kinds[:2])
        qb = " / ".join("/".join(map(str, b[k])) for k in kinds)
        print(
            f"| {name} | ≤ {TARGET_MS:.0f} ms warm | {s['warm_ms']:.0f} ms "
            f"({s['cold_ms']:.0f} ms), {q} q | {b['warm_ms']:.0f} ms "
            f"({b['warm_min_ms']:.0f}–{b['warm_max_ms']:.0f}), cold {b['cold_ms']:.0f} ms, "
            f"changed {b['changed_ms']:.0f} ms; {qb} q, {b['kb']} KB | {verdict} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"figures": figures}, indent=1, default=str))


if __name__ == "__main__":
    main()
