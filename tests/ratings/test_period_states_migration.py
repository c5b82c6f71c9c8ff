"""Migration 0009 moves PeriodRating's JSON ``states`` into plain columns: a database
holding the demo goes back to the JSON and forward again, and every period rating
keeps its whole state, to the bit; a rewind after it restores the same ratings."""

from __future__ import annotations

import struct

import pytest

from ratings.models import PeriodRating, PlayerRating, RatingPeriod
from ratings.rate import ratings_recompute
from ratings.systems import SYSTEM_NAMES
from tests.factories import UserFactory
from tests.tournaments.migrating import latest, migrate_to
from tournaments.demo import demo_load

# They guard the embedded default too: its migrations run on SQLite.
pytestmark = pytest.mark.embedded

BEFORE = [("ratings", "0008_game_rating_points_at_tournaments_game")]


def bits(row):
    return tuple(struct.pack(">d", v) if isinstance(v, float) else v for v in row)


def history():
    return sorted(
        bits(row)
        for row in PeriodRating.objects.values_list(
            "period_id", "player_id", "games", *PeriodRating.rating_columns()
        )
    )


@pytest.mark.django_db(transaction=True)
def test_the_period_states_go_to_columns_and_back_without_losing_a_bit():
    demo_load(organiser=UserFactory(is_staff=True))
    rows = history()
    players = sorted(map(repr, PlayerRating.objects.values_list("player_id", "system", "state")))
    assert rows and any(row[-1] is not None for row in rows)
    try:
        old = migrate_to(BEFORE).get_model("ratings", "PeriodRating")
        states = {
            (p, q): s for p, q, s in old.objects.values_list("period_id", "player_id", "states")
        }
        some = next(s for s in states.values() if s)
        assert set(some) <= set(SYSTEM_NAMES)
        assert set(some["glicko2"]) == {"rating", "rd", "volatility"}
        assert set(some["elo"]) == {"rating", "games", "reached_top"}
        assert set(some["openskill"]) == {"mu", "sigma"}
    finally:
        migrate_to(latest())
    assert history() == rows
    # A recomputation from the middle restores every player from these columns (the
    # rewind) and rates the rest again: the same ratings as before.
    periods = list(RatingPeriod.objects.order_by("closed_at", "id"))
    ratings_recompute(start=periods[len(periods) // 2])
    assert history() == rows
    again = PlayerRating.objects.values_list("player_id", "system", "state")
    assert sorted(map(repr, again)) == players
