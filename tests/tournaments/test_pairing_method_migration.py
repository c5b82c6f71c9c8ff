"""The migration that adds the pairing method keeps tournaments already under way on the
method that paired their rounds (closest scores); the others take the book's rule."""

from __future__ import annotations

import pytest

from tests.tournaments.migrating import migrate_to

# They guard the embedded default too: its migrations run on SQLite.
pytestmark = pytest.mark.embedded

BEFORE = [("tournaments", "0009_tournament_league_schedule")]
AFTER = [("tournaments", "0010_tournament_pairing_method")]


@pytest.mark.usefixtures("latest_schema_afterwards")
@pytest.mark.django_db(transaction=True)
def test_tournaments_under_way_keep_closest_scores_and_the_rest_take_the_book():
    old = migrate_to(BEFORE)
    try:
        club = old.get_model("tournaments", "Club").objects.create(name="K", slug="k")
        Tournament = old.get_model("tournaments", "Tournament")
        running = Tournament.objects.create(club=club, name="Running", slug="running")
        Tournament.objects.create(club=club, name="Draft", slug="draft")
        Round = old.get_model("tournaments", "Round")
        for number in (1, 2):
            Round.objects.create(tournament=running, number=number, status="closed")
    finally:
        new = migrate_to(AFTER)
    rows = new.get_model("tournaments", "Tournament").objects.order_by("slug")
    assert list(rows.values_list("slug", "pairing_method")) == [
        ("draft", "book"),
        ("running", "closest"),
    ]
