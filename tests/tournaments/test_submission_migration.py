"""The migration to per-seat links and submissions keeps existing results: every played
game gets the submission it would have had, and every seat its own link."""

from __future__ import annotations

import pytest

from tests.tournaments.migrating import migrate_to

# They guard the embedded default too: its migrations run on SQLite.
pytestmark = pytest.mark.embedded

BEFORE = [("tournaments", "0004_setting_bounds"), ("games", "0003_game_setup")]
AFTER = [("tournaments", "0006_result_submissions_and_seat_links")]


@pytest.mark.usefixtures("latest_schema_afterwards")
@pytest.mark.django_db(transaction=True)
def test_existing_results_become_submissions_and_seats_get_their_own_links():
    old = migrate_to(BEFORE)
    try:
        club = old.get_model("tournaments", "Club").objects.create(name="K", slug="k")
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            club=club, name="T", slug="t"
        )
        Player = old.get_model("tournaments", "Player")
        Entry = old.get_model("tournaments", "Entry")
        entries = [
            Entry.objects.create(
                tournament=tournament, player=Player.objects.create(club=club, name=n), seed=i
            )
            for i, n in enumerate("AB", start=1)
        ]
        round_ = old.get_model("tournaments", "Round").objects.create(
            tournament=tournament, number=1, status="published"
        )
        table = old.get_model("tournaments", "Table").objects.create(
            round=round_, number=1, report_token="old-table-link"
        )
        Seat = old.get_model("tournaments", "Seat")
        for position, entry in enumerate(entries, start=1):
            Seat.objects.create(table=table, round=round_, entry=entry, position=position)
        Game = old.get_model("games", "Game")
        common = {"table": table, "status": "finished", "out_1": 3, "out_2": 1}
        Game.objects.create(number=1, **common)
        Game.objects.create(number=2, reported_by_position=2, confirmed=False, **common)
        Game.objects.create(number=3, reported_by_position=1, confirmed=True, **common)
        Game.objects.create(table=table, number=4)
    finally:
        new = migrate_to(AFTER)
    seats = list(new.get_model("tournaments", "Seat").objects.order_by("position"))
    tokens = {s.report_token for s in seats}
    assert len(tokens) == 2 and all(len(t) >= 32 for t in tokens)
    Submission = new.get_model("tournaments", "ResultSubmission")
    rows = {
        s.game.number: (s.state, s.by_seat.position if s.by_seat else None, s.out)
        for s in Submission.objects.select_related("game", "by_seat")
    }
    assert rows == {
        1: ("entered", None, [3, 1]),
        2: ("reported", 2, [3, 1]),
        3: ("confirmed", 1, [3, 1]),
    }
