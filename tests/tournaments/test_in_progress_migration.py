"""The migration that adds the game in progress: in a round still open, a game whose
partial move record was stored as "unfinished" (the old reading) is in progress again;
closed rounds, pieces-out results and finished records keep their results."""

from __future__ import annotations

import pytest

from tests.tournaments.migrating import migrate_to

# They guard the embedded default too: its migrations run on SQLite.
pytestmark = pytest.mark.embedded

BEFORE = [("tournaments", "0013_entry_skips_and_missed_round_score")]
AFTER = [("tournaments", "0014_game_in_progress")]
PARTIAL = ["W-W1B", "B-B1R"]


@pytest.mark.usefixtures("latest_schema_afterwards")
@pytest.mark.django_db(transaction=True)
def test_partial_records_of_open_rounds_become_in_progress_and_closed_rounds_keep_theirs():
    old = migrate_to(BEFORE)
    try:
        club = old.get_model("tournaments", "Club").objects.create(name="K", slug="k")
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            club=club, name="Cup", slug="cup"
        )
        Round = old.get_model("tournaments", "Round")
        Table = old.get_model("tournaments", "Table")
        Game = old.get_model("tournaments", "Game")
        Submission = old.get_model("tournaments", "ResultSubmission")
        closed = Table.objects.create(
            round=Round.objects.create(tournament=tournament, number=1, status="closed"),
            number=1,
        )
        open_ = Table.objects.create(
            round=Round.objects.create(tournament=tournament, number=2, status="published"),
            number=1,
        )

        def game(table, number, status, moves, out=(0, 0), confirmed=True):
            made = Game.objects.create(
                table=table,
                number=number,
                status=status,
                moves=moves,
                out_1=out[0],
                out_2=out[1],
                confirmed=confirmed,
            )
            Submission.objects.create(
                game=made, state="entered", status=status, out=list(out), moves=moves
            )
            return made.pk

        ids = {
            "open partial": game(open_, 1, "unfinished", PARTIAL),
            "open typed u": game(open_, 2, "unfinished", [], out=(2, 1)),
            "open finished": game(open_, 3, "finished", PARTIAL, out=(3, 1)),
            "closed partial": game(closed, 1, "unfinished", PARTIAL),
        }
    finally:
        new = migrate_to(AFTER)
    games = new.get_model("tournaments", "Game").objects
    assert {name: games.get(pk=pk).status for name, pk in ids.items()} == {
        "open partial": "in_progress",
        "open typed u": "unfinished",
        "open finished": "finished",
        "closed partial": "unfinished",
    }
    submissions = new.get_model("tournaments", "ResultSubmission").objects
    assert submissions.get(game_id=ids["open partial"]).status == "in_progress"
    assert submissions.get(game_id=ids["closed partial"]).status == "unfinished"
