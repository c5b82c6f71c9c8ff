"""Standings of a 1,000-player, 9-round tournament read through the database.

Builds the tournament with bulk inserts into a scratch database (SQLite in
var/bench-standings.sqlite3 unless DATABASE_URL is set), then times
`tournament_standings` (three queries plus the pure core) and counts its queries.

    .venv/bin/python bench/standings_db.py [--players 1000] [--rounds 9]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    scratch = ROOT / "var" / "bench-standings.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        scratch.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.synthetic import bulk_round
    from tournaments.models import Club, Entry, Player, Tournament
    from tournaments.standings.selectors.standings import _compute, tournament_standings

    call_command("migrate", verbosity=0)
    rng = random.Random(6)
    club = Club.objects.create(name=f"Bench {time.time()}", slug=f"bench-{time.time_ns()}")
    tournament = Tournament.objects.create(
        club=club, name="Bench", slug=f"bench-{time.time_ns()}", rounds_planned=args.rounds
    )
    players = Player.objects.bulk_create(
        Player(club=club, name=f"P{i}") for i in range(args.players)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, seed=i + 1) for i, p in enumerate(players)
    )
    built = time.perf_counter()
    for number in range(1, args.rounds + 1):
        bulk_round(tournament, number, entries, rng)
    print(
        f"built {args.players} players x {args.rounds} rounds in "
        f"{time.perf_counter() - built:.1f} s on {connection.vendor}"
    )
    best = float("inf")
    for _ in range(3):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            standings = _compute(tournament)
            best = min(best, time.perf_counter() - start)
    print(
        f"standings computed: {len(standings.rows)} rows in {best:.3f} s (best of 3), "
        f"{len(queries)} SQL queries (target 0.5 s)"
    )
    tournament_standings(tournament=tournament)
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        tournament_standings(tournament=tournament)
        cached = time.perf_counter() - start
    print(f"standings from the cache: {cached * 1000:.1f} ms, {len(queries)} SQL queries")


if __name__ == "__main__":
    main()
