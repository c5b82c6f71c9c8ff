"""What one ply recorded live costs the server, and whether it grows with its game
(issue 44, point 3): plies of one long 2-player game sent one by one from the seats'
links, as the recording board sends them (`POST /games/<id>/record/<token>/`, Django's
test client in this process, no test transaction: the commit and the live tables' news
after it are counted), on PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set
(bench/ply_cost.sh starts private ones).

For the plies around 10, 100, 300 and 500: the SQL statements of one ply (the request's
own, its answer and its news included, BEGIN and COMMIT counted), and the time per ply
(medians of the ten plies around each mark): this process's CPU (the site's Python
work: the load of a shared machine hardly moves it) and the wall clock (PostgreSQL's
part included).

    bash bench/ply_cost.sh [--plies 500]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MARKS = (10, 100, 300, 500)


def long_game(plies: int) -> list[str]:
    from games import pentagame
    from games.pentagame.playout import random_game

    seed = 0
    while True:
        moves = random_game(2, seed=seed, max_plies=plies + 1)
        record = {"players": 2, "variant": "standard", "moves": moves[:plies]}
        if len(moves) > plies and not pentagame.replay(record).finished:
            return moves
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plies", type=int, default=500)
    args = parser.parse_args()
    scratch = ROOT / "var" / "bench-ply-cost.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        scratch.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tests.factories import tournament_with_players
    from tournaments.core.actor import Actor
    from tournaments.desk.services.rounds import round_pair_next, round_publish
    from tournaments.models import Game, Seat

    call_command("migrate", verbosity=0)
    moves = long_game(args.plies)
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    tokens = {s.position: s.report_token for s in Seat.objects.filter(table=game.table)}
    order = game.moving_order(2)
    client = Client(HTTP_HOST="127.0.0.1")
    statements: dict[int, int] = {}
    seconds: dict[int, float] = {}
    cpu: dict[int, float] = {}
    for n in range(1, args.plies + 1):
        url = reverse("games:record-token", args=[game.pk, tokens[order[(n - 1) % 2]]])
        body = json.dumps({"ply": n, "move": moves[n - 1], "key": uuid.uuid4().hex})
        connection.queries_log.clear()  # the log keeps 9,000: one ply's are counted
        with CaptureQueriesContext(connection) as queries:
            start, started = time.perf_counter(), time.process_time()
            answer = client.post(url, body, content_type="application/json")
            seconds[n] = time.perf_counter() - start
            cpu[n] = time.process_time() - started
        if answer.status_code != 200:
            raise SystemExit(f"ply {n}: {answer.status_code} {answer.content[:200]!r}")
        statements[n] = len(queries)
    print(f"{args.plies} plies of one 2-player game on {connection.vendor}")
    print("ply | SQL statements | CPU ms per ply | wall ms per ply")
    for mark in (m for m in MARKS if m <= args.plies):
        near = range(max(1, mark - 5), min(args.plies, mark + 5) + 1)
        wall = statistics.median(seconds[n] for n in near) * 1000
        used = statistics.median(cpu[n] for n in near) * 1000
        print(f"{mark:>3} | {statements[mark]:>14} | {used:>14.1f} | {wall:.1f}")
    print(f"most statements of any ply after the first two: {max(list(statements.values())[2:])}")


if __name__ == "__main__":
    main()
