"""A game's stored position (`Game.position`, services/plies.py) and ply rows that
belong to their record: until now a ply read every row of its game and removed those a
whole record saved, an undo or a cleared game had left behind; now the write that cuts
the record removes them (services/results.py, `_drop_stale_plies`), so the rows left
behind before are removed here once."""

from django.db import migrations, models


def drop_stale_plies(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    Ply = apps.get_model("tournaments", "Ply")
    games = Game.objects.filter(plies__isnull=False).distinct().values_list("pk", "status", "moves")
    for pk, status, moves in games.iterator():
        record = [] if status == "pending" else list(moves or [])
        stale = [
            ply_pk
            for ply_pk, number, move in Ply.objects.filter(game_id=pk).values_list(
                "pk", "number", "move"
            )
            if number > len(record) or record[number - 1] != move
        ]
        if stale:
            Ply.objects.filter(pk__in=stale).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_egg_timer_pause"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="position",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(drop_stale_plies, migrations.RunPython.noop, elidable=True),
    ]
