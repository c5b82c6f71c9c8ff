from django.db import migrations, models


def partial_records_are_in_progress(apps, schema_editor):
    """A move record saved before its game ended used to become "unfinished" (a result,
    the turn ended). In a round still open such a game is in progress again: its status
    and the live submissions that hold a record become "in_progress". A move record only
    ever became unfinished when it did not finish (a finished record is "finished"), so
    the replay is implied by the status. Closed rounds keep their results."""
    Game = apps.get_model("tournaments", "Game")
    Submission = apps.get_model("tournaments", "ResultSubmission")
    games = [
        pk
        for pk, moves in Game.objects.filter(status="unfinished")
        .exclude(table__round__status="closed")
        .values_list("pk", "moves")
        .iterator()
        if moves
    ]
    for start in range(0, len(games), 500):
        chunk = games[start : start + 500]
        # A game in progress waits for no confirmation: it is no result yet.
        Game.objects.filter(pk__in=chunk).update(status="in_progress", confirmed=True)
        for pk, moves in (
            Submission.objects.filter(game_id__in=chunk, status="unfinished")
            .exclude(state="discarded")
            .values_list("pk", "moves")
        ):
            if moves:
                Submission.objects.filter(pk=pk).update(status="in_progress")


def in_progress_is_unfinished(apps, schema_editor):
    """Backwards: the old reading, a partial record is an unfinished result."""
    apps.get_model("tournaments", "Game").objects.filter(status="in_progress").update(
        status="unfinished"
    )
    apps.get_model("tournaments", "ResultSubmission").objects.filter(status="in_progress").update(
        status="unfinished"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_entry_skips_and_missed_round_score"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=[
                    ("pending", "not played yet"),
                    ("finished", "finished"),
                    ("unfinished", "unfinished (the turn ended)"),
                    ("in_progress", "in progress"),
                ],
                default="pending",
                max_length=12,
            ),
        ),
        migrations.RunPython(partial_records_are_in_progress, in_progress_is_unfinished),
    ]
