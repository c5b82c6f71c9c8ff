"""The Game model moved from the games app to the tournaments without touching a row:
a database holding the demo goes back to the state before the move and forward again,
and every game, its ratings and its content type survive."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType

from ratings.models import GameRating
from tests.factories import UserFactory
from tests.tournaments.migrating import latest, migrate_to
from tournaments.demo import demo_load
from tournaments.models import Game

# They guard the embedded default too: its migrations run on SQLite.
pytestmark = pytest.mark.embedded

BEFORE_THE_MOVE = [
    ("tournaments", "0004_setting_bounds"),
    ("games", "0003_game_setup"),
    ("ratings", "0007_period_rating_per_player"),
]


@pytest.mark.django_db(transaction=True)
def test_the_demo_database_keeps_every_game_through_the_move_both_ways():
    demo_load(organiser=UserFactory(is_staff=True))
    games = sorted(Game.objects.values_list("pk", "table_id", "status", "moves", "out_1"))
    ratings = GameRating.objects.count()
    assert games and ratings
    ContentType.objects.get_for_model(Game)

    old_apps = migrate_to(BEFORE_THE_MOVE)
    old_game = old_apps.get_model("games", "Game")
    # The old schema has no game in progress: 0014 reads the demo's live games back as
    # unfinished, and forward again as in progress.
    old = [(*g[:2], "unfinished" if g[2] == "in_progress" else g[2], *g[3:]) for g in games]
    assert sorted(old_game.objects.values_list("pk", "table_id", "status", "moves", "out_1")) == old
    assert ContentType.objects.filter(app_label="games", model="game").exists()

    migrate_to(latest())
    assert sorted(Game.objects.values_list("pk", "table_id", "status", "moves", "out_1")) == games
    assert GameRating.objects.count() == ratings
    assert GameRating.objects.select_related("game").first().game.table_id
    # Permissions and admin history stay attached: the content type was renamed.
    assert ContentType.objects.filter(app_label="tournaments", model="game").count() == 1
    assert not ContentType.objects.filter(app_label="games", model="game").exists()
    ContentType.objects.clear_cache()
