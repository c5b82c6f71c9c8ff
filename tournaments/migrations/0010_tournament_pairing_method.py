from django.db import migrations, models


def keep_the_method_of_tournaments_under_way(apps, schema_editor):
    """Tournaments already paired were paired by the closest-scores method: they keep it,
    so a running Swiss does not change its rule between two rounds. New ones (and those
    not yet paired) take the book's rule."""
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(rounds__isnull=False).distinct().update(pairing_method="closest")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_tournament_league_schedule"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="pairing_method",
            field=models.CharField(
                choices=[
                    ("book", "the book's rule: top-down, the next player not yet met"),
                    ("closest", "closest scores at each table"),
                ],
                default="book",
                help_text="How the next round is paired once rematches and table sizes are "
                "settled; the rounds already paired stay as they are.",
                max_length=16,
                verbose_name="pairing method",
            ),
        ),
        migrations.RunPython(keep_the_method_of_tournaments_under_way, migrations.RunPython.noop),
    ]
