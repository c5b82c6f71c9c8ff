"""Two edits of one game at once on the embedded default (a SQLite file, as the quick
start serves it): one wins and the other is told it came second, exactly as on
PostgreSQL (test_concurrency.py), never "database is locked"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RACE = """
import threading
from django.db import connections
from tests.factories import tournament_with_players
from tournaments.models import Game
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError
from tournaments.results.services.results import game_record_out
from tournaments.desk.services.rounds import round_pair_next, round_publish

by = Actor.command()
tournament = tournament_with_players(2)
round_ = round_pair_next(tournament=tournament, by=by)
round_publish(round=round_, by=by)
game = Game.objects.filter(table__round=round_).first()
seen = game.version
outcomes = {}
barrier = threading.Barrier(2)

def edit(out):
    try:
        barrier.wait()
        game_record_out(game=Game.objects.get(pk=game.pk), out=out, version=seen, by=by)
        outcomes[tuple(out)] = "saved"
    except ConflictError:
        outcomes[tuple(out)] = "conflict"
    except Exception as exc:
        outcomes[tuple(out)] = f"{type(exc).__name__}: {exc}"
    finally:
        connections.close_all()

threads = [threading.Thread(target=edit, args=(out,)) for out in ([3, 1], [1, 3])]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join(60)
game.refresh_from_db()
print(sorted(outcomes.values()), game.version - seen, game.out_list(2) in ([3, 1], [1, 3]))
"""


def test_two_edits_of_one_game_at_once_on_sqlite_one_saved_one_conflict(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DJANGO_SETTINGS_MODULE"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'agon.sqlite3'}"
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    done = subprocess.run(
        [*manage, "shell", "-c", RACE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['conflict', 'saved'] 1 True", done.stdout
