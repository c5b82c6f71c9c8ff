"""Two real sites (issue 45): the club's site on PostgreSQL (this test's live server,
with a real Celery worker rating what arrives) and venues on SQLite, each a process of
its own (tests/venue_side.py plays the evening through the services; `manage.py
venue_push` publishes it).

One venue pushes its evening live, round by round: its push loop is killed at random
moments in the middle of a round, and the link is cut for a whole round (the site's
address unreachable) and then restored. A second venue plays the same evening (the same
seeds) and pushes it once, afterwards. The site must end with both evenings the same:
every game and result as the venue has them, the same standings, crosstable and
ratings (the two clubs' players are rated only by their own evening)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model

from ratings.models import PlayerRating, RatingJob
from tournaments.core.actor import Actor
from tournaments.link.services import venue_token_create
from tournaments.models import Club, Tournament, VenueEvent
from tournaments.standings.selectors.crosstable import tournament_crosstable
from tournaments.transfer.services import tournament_export_document

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
BASE = Path(django_settings.BASE_DIR)
ROUNDS = 5
UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens, a refused link


def venue_env(db: Path) -> dict[str, str]:
    """The venue's own process: its SQLite file, tasks in process, no Redis."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER")
    }
    env["DATABASE_URL"] = f"sqlite:///{db}"
    env["DEBUG"] = "true"
    return env


def run(db: Path, *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=BASE,
        env=venue_env(db),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def play(db: Path, *args: str) -> str:
    return run(db, "-m", "tests.venue_side", *args)


def push(db: Path, *args: str) -> str:
    return run(db, "manage.py", "venue_push", *args)


def venue_document(db: Path, slug: str) -> dict[str, Any]:
    out = run(
        db,
        "manage.py",
        "shell",
        "-c",
        "import json; from tournaments.models import Tournament; "
        "from tournaments.transfer.services import tournament_export_document as e; "
        f"print(json.dumps(e(tournament=Tournament.objects.get(slug={slug!r}))))",
    )
    return json.loads(out.strip().splitlines()[-1])


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    document = json.loads(json.dumps(document))
    document["tournament"].pop("slug")
    document.pop("audit")
    document.pop("club")
    return document


def ratings_settled(deadline: float) -> None:
    while time.monotonic() < deadline:
        if not RatingJob.objects.exclude(status=RatingJob.Status.DONE).exists():
            return
        time.sleep(0.2)
    raise AssertionError(list(RatingJob.objects.exclude(status=RatingJob.Status.DONE).values()))


def standing_lines(tournament: Tournament) -> list[tuple[Any, ...]]:
    table = tournament_crosstable(tournament=tournament)
    names = dict(tournament.entries.values_list("pk", "player__name"))
    return [
        (
            line.number,
            # The row names its entry by id, which differs between the two events.
            names.get(int(line.row.player), line.row.player),
            line.standing.rank,
            line.standing.score,
            line.row.total,
            [None if c is None else (c.total,) for c in line.cells],
        )
        for line in table.lines
    ]


@pytest.fixture
def template_db(tmp_path: Path) -> Path:
    db = tmp_path / "template.sqlite3"
    run(db, "manage.py", "migrate", "--noinput", "-v0")
    return db


def test_an_evening_pushed_live_through_kills_and_a_cut_equals_it_pushed_afterwards(
    celery_worker_process, live_server, tmp_path, template_db
):
    site = live_server.url
    staff = get_user_model().objects.create(username="site-staff", is_staff=True)
    tokens = {}
    for slug in ("kiel", "bonn"):
        club = Club.objects.create(name=slug.title(), slug=slug)
        club.organisers.add(staff)
        _row, tokens[slug] = venue_token_create(club=club, name="laptop", by=Actor.director(staff))
    live, later = tmp_path / "live.sqlite3", tmp_path / "later.sqlite3"
    shutil.copy(template_db, live)
    shutil.copy(template_db, later)
    rng = random.Random(45)

    # The live venue: linked before the first round, pushed after every one.
    play(live, "setup", "--club", "kiel", "--slug", "night")
    out = push(live, "--club", "kiel", "--site", site, "--token", tokens["kiel"], "--publish-all")
    assert "night: up_to_date" in out or "night: sent" in out, out
    for number in range(1, ROUNDS + 1):
        play(live, "round", "--slug", "night", "--seed", str(number))
        if number == 2:
            # The push loop dies at random moments (a laptop closed, a crash); each
            # start picks up from what the site acknowledged.
            for _ in range(3):
                loop = subprocess.Popen(  # noqa: S603
                    [sys.executable, "manage.py", "venue_push", "--loop", "--every", "0.1"],
                    cwd=BASE,
                    env=venue_env(live),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(rng.uniform(1.0, 4.0))
                loop.send_signal(signal.SIGKILL)
                loop.wait(10)
        if number == 3:
            # The link is cut for a whole round: the push fails and backs off.
            out = push(live, "--club", "kiel", "--site", UNREACHABLE, "--token", tokens["kiel"])
            assert "night: failed" in out, out
            continue
        if number == 4:  # the link is back
            push(live, "--club", "kiel", "--site", site, "--token", tokens["kiel"])
        out = push(live)
        assert "night: sent" in out or "night: up_to_date" in out, out
        site_night = Tournament.objects.get(slug="night")
        assert site_night.rounds.filter(status="closed").count() == number
    # Once more: nothing left to send.
    assert "night: up_to_date" in push(live)

    # The same evening at another venue, pushed once at the end.
    play(later, "setup", "--club", "bonn", "--slug", "night-later")
    for number in range(1, ROUNDS + 1):
        play(later, "round", "--slug", "night-later", "--seed", str(number))
    out = push(later, "--club", "bonn", "--site", site, "--token", tokens["bonn"], "--publish-all")
    assert "night-later: up_to_date rounds [1, 2, 3, 4, 5]" in out, out

    night = Tournament.objects.get(slug="night")
    night_later = Tournament.objects.get(slug="night-later")
    # The site holds each evening exactly as its venue has it.
    assert comparable(tournament_export_document(tournament=night)) == comparable(
        venue_document(live, "night")
    )
    assert comparable(tournament_export_document(tournament=night_later)) == comparable(
        venue_document(later, "night-later")
    )
    # Live or afterwards: the same standings and crosstable, the same ratings.
    assert standing_lines(night) == standing_lines(night_later)
    ratings_settled(time.monotonic() + 180)

    def ratings(club: str) -> list[tuple[Any, ...]]:
        return sorted(
            (r.player.name, r.system, round(r.rating, 6), r.games)
            for r in PlayerRating.objects.filter(player__club__slug=club).select_related("player")
        )

    assert ratings("kiel") == ratings("bonn")
    assert ratings("kiel")
    assert VenueEvent.objects.filter(tournament__in=[night, night_later]).count() == 2
