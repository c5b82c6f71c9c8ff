"""The files a write passes through, read from the running code: a ply recorded through
the API and a result typed on the results screen, each request traced (every Python
function called) on a fresh SQLite database, and the project's files it ran listed by
concern (docs/architecture.md). A file of another concern on a path shows here.

    .venv/bin/python bench/paths.py
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_db = Path(tempfile.mkdtemp()) / "paths.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{_db}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from games.pentagame.playout import random_game  # noqa: E402
from tests.factories import ClubFactory, UserFactory, tournament_with_players  # noqa: E402
from tournaments.core.actor import Actor  # noqa: E402
from tournaments.desk.services.rounds import round_pair_next, round_publish  # noqa: E402
from tournaments.models import Game  # noqa: E402

APPS = ("tournaments", "games", "ratings", "config")


def concern(path: str) -> str:
    parts = path.split("/")
    if parts[0] != "tournaments":
        return parts[0]
    return f"tournaments/{parts[1]}" if len(parts) > 2 else "tournaments (ground floor)"


def traced(request: Callable[[], Any]) -> tuple[Any, dict[str, set[str]]]:
    files: set[str] = set()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            files.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        answer = request()
    finally:
        sys.setprofile(None)
    by_concern: dict[str, set[str]] = defaultdict(set)
    for name in files:
        path = Path(name)
        if path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in APPS:
            rel = path.relative_to(ROOT).as_posix()
            by_concern[concern(rel)].add(rel)
    return answer, by_concern


def show(title: str, answer: Any, by_concern: dict[str, set[str]]) -> None:
    print(f"{title}: HTTP {answer.status_code}")
    if answer.status_code >= 400:
        print(f"  {answer.content[:300]!r}")
    for name in sorted(by_concern):
        print(f"  {name}")
        for path in sorted(by_concern[name]):
            print(f"    {path}")
    print()


def main() -> None:
    logging.disable(logging.INFO)  # the login's and the throttles' lines are not the point
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    user = UserFactory(username="td")
    club = ClubFactory(slug="kiel")
    club.organisers.add(user)
    tournament = tournament_with_players(4, club=club, slug="cup")
    tournament.directors.add(user)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    first, second = Game.objects.filter(table__round=round_).order_by("pk")[:2]
    client = Client()
    client.force_login(user)
    move = random_game(first.table.seats.count(), seed=1, max_plies=1)[0]
    ply = {"ply": 1, "move": move, "key": "paths-1"}
    # Warm up (imports, caches, the first request's middleware) on the other game, so
    # the trace shows what a ply and a result run, not what starting the site does.
    client.post(f"/api/v1/games/{second.pk}/plies/", ply, content_type="application/json")
    client.get(f"/t/cup/manage/rounds/{round_.number}/results/")
    answer, files = traced(
        lambda: client.post(
            f"/api/v1/games/{first.pk}/plies/", ply, content_type="application/json"
        )
    )
    show("A ply (POST /api/v1/games/{id}/plies/)", answer, files)
    third = Game.objects.filter(table__round=round_).exclude(pk__in=[first.pk, second.pk])
    game = third.first() or second
    seats = game.table.seats.count()
    answer, files = traced(
        lambda: client.post(
            f"/t/cup/manage/rounds/{round_.number}/results/{game.pk}/",
            {
                "out": " ".join(["3"] + ["0"] * (seats - 1)),
                "finished": "on",
                "version": game.version,
            },
            HTTP_HX_REQUEST="true",
        )
    )
    show("A typed result (the results screen's save)", answer, files)


if __name__ == "__main__":
    main()
