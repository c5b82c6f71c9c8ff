"""Pushing a venue's evening to the club's site once the link is back (issue 45, point 8;
docs/venue.md): the target is a 60-table evening's plies (about 20,000) in <= 30 s on
2 cores.

The venue is a process of its own on a scratch SQLite file, as on the laptop: an evening
of --players players at 2-player tables (--players / 2 tables), one game a turn, each game
a random legal Pentagame record played through the result services (the rules engine
checks every ply), --rounds rounds closed. The club's site is Django's threaded live
server in this process on DATABASE_URL (bench/venue_push.sh starts a private PostgreSQL
and Redis). The time runs from the start of `manage.py venue_push` at the venue (the
link just back) until it has exited with the site up to date: Python's start, the
export, every push over HTTP (gzip), the site replaying each game through its result
services and rules engine, the answers.

    bash bench/venue_push.sh [--players 120] [--rounds 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def venue_env(db: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER")
    }
    env["DATABASE_URL"] = f"sqlite:///{db}"
    env["DEBUG"] = "true"
    return env


def build_venue(players: int, rounds: int) -> None:
    """In the venue's process: the club, the evening and its rounds, all through the
    services."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments.core.actor import Actor
    from tournaments.demo import random_record
    from tournaments.desk.services.clubs import club_create
    from tournaments.desk.services.entries import entry_add
    from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
    from tournaments.desk.services.tournaments import tournament_create
    from tournaments.models import Game
    from tournaments.results.services.results import game_record_moves

    user = get_user_model().objects.create(username="venue", is_staff=True)
    by = Actor.director(user)
    club = club_create(name="Bench", slug="bench", by=by)
    club.organisers.add(user)
    tournament = tournament_create(
        club=club,
        name="Bench evening",
        slug="bench-evening",
        rounds_planned=max(rounds, 1),
        policy="pairs+bye",
        games_per_turn_2=1,
        published=True,
        uneven_turns=True,
        by=by,
    )
    for i in range(players):
        entry_add(tournament=tournament, name=f"Player {i + 1:03d}", by=by)
    for number in range(rounds):
        round_ = round_pair_next(tournament=tournament, by=by)
        round_publish(round=round_, by=by)
        games = Game.objects.filter(table__round=round_, table__is_bye=False)
        for i, game in enumerate(games.order_by("table__number", "number")):
            moves, setup = random_record("pentagame", 2, number * 10_000 + i)
            game_record_moves(game=game, moves=moves, finished=True, setup=setup, by=by)
        round_close(round=round_, by=by)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--build-venue", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if args.build_venue:
        build_venue(args.players, args.rounds)
        return

    import django

    django.setup()
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.management import call_command
    from django.test.testcases import LiveServerThread

    from tournaments.core.actor import Actor
    from tournaments.link.services import venue_token_create
    from tournaments.models import Club, Ply, Tournament

    scratch = Path(tempfile.mkdtemp(prefix="agon-venue-bench-"))
    template = scratch / "venue.sqlite3"
    started = time.perf_counter()
    for step in (
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        [
            sys.executable,
            "bench/venue_push.py",
            "--build-venue",
            "--players",
            str(args.players),
            "--rounds",
            str(args.rounds),
        ],
    ):
        subprocess.run(step, cwd=ROOT, env=venue_env(template), check=True)
    print(f"venue built in {time.perf_counter() - started:.0f} s", flush=True)

    call_command("migrate", "--noinput", "-v0")
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="site-bench", is_staff=True)
    server = LiveServerThread("127.0.0.1", static_handler=StaticFilesHandler)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    site = f"http://127.0.0.1:{server.port}"
    seconds = []
    plies = 0
    for attempt in range(args.repeat):
        Tournament.objects.filter(slug="bench-evening").delete()
        club, _ = Club.objects.get_or_create(slug="bench", defaults={"name": "Bench"})
        club.organisers.add(user)
        _row, secret = venue_token_create(
            club=club, name=f"bench {attempt}", by=Actor.director(user)
        )
        venue = scratch / f"venue-{attempt}.sqlite3"
        venue.write_bytes(template.read_bytes())
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "venue_push",
                "--club",
                "bench",
                "--site",
                "http://127.0.0.1:9",
                "--token",
                secret,
                "--publish-all",
            ],
            cwd=ROOT,
            env=venue_env(venue),
            check=True,
            capture_output=True,
        )
        # The link is back: the site's address entered, the push run until up to date.
        begin = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "venue_push",
                "--club",
                "bench",
                "--site",
                site,
                "--token",
                secret,
            ],
            cwd=ROOT,
            env=venue_env(venue),
            check=True,
            capture_output=True,
            text=True,
        )
        seconds.append(time.perf_counter() - begin)
        if "bench-evening: up_to_date" not in done.stdout and "sent" not in done.stdout:
            raise SystemExit(f"the push did not go through: {done.stdout} {done.stderr}")
        tournament = Tournament.objects.get(slug="bench-evening")
        plies = Ply.objects.filter(game__table__round__tournament=tournament).count()
        moves = sum(
            len(m) for m in tournament.rounds.values_list("tables__games__moves", flat=True) if m
        )
        print(
            f"push {attempt + 1}: {seconds[-1]:.2f} s; {done.stdout.strip()}; "
            f"site: {plies} ply rows, {moves} plies in records",
            flush=True,
        )
    load = os.getloadavg()
    print(
        f"pushed a {args.players // 2}-table evening ({args.rounds} round(s), {moves} plies): "
        f"median {statistics.median(seconds):.2f} s of {[round(s, 2) for s in seconds]} "
        f"(target <= 30 s); load {load[0]:.2f}"
    )
    server.terminate()


if __name__ == "__main__":
    main()
