"""PeriodRating's per-row JSON ``states`` becomes plain columns: the fields of each
system's state that its after and deviation columns do not hold already."""

from django.db import migrations, models

# Frozen here: the mapping as it stood when the columns were made (ratings.models
# STATE_COLUMNS may grow later, with a migration of its own).
EXTRA = {
    "glicko2": {"volatility": "glicko2_volatility"},
    "openskill": {"mu": "openskill_mu"},
    "elo": {"games": "elo_games", "reached_top": "elo_reached_top"},
}
CASTS = {"glicko2_volatility": "float8", "openskill_mu": "float8", "elo_games": "int4"}
BATCH = 2000


def states_into_columns(apps, schema_editor):
    PeriodRating = apps.get_model("ratings", "PeriodRating")
    if schema_editor.connection.vendor == "postgresql":
        # One statement. JSON numbers are kept as written (Python's repr of a float),
        # and float8 reads them back to the same double.
        sets = []
        for system, fields in EXTRA.items():
            for key, column in fields.items():
                value = f"states->'{system}'->'{key}'"
                cast = CASTS.get(column, "boolean")
                sets.append(f'"{column}" = ({value})::text::{cast}')
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(f'UPDATE "{PeriodRating._meta.db_table}" SET {", ".join(sets)}')
        return
    columns = [column for fields in EXTRA.values() for column in fields.values()]
    rows = PeriodRating.objects.order_by("pk").only("pk", "states")
    last = 0
    while batch := list(rows.filter(pk__gt=last)[:BATCH]):
        for row in batch:
            for system, fields in EXTRA.items():
                state = (row.states or {}).get(system) or {}
                for key, column in fields.items():
                    setattr(row, column, state.get(key))
        PeriodRating.objects.bulk_update(batch, columns)
        last = batch[-1].pk


def columns_into_states(apps, schema_editor):
    PeriodRating = apps.get_model("ratings", "PeriodRating")
    kept = {
        "glicko2": {"rating": "glicko2_after", "rd": "glicko2_deviation"},
        "openskill": {"sigma": "openskill_deviation"},
        "elo": {"rating": "elo_after"},
    }
    rows = PeriodRating.objects.order_by("pk")
    last = 0
    while batch := list(rows.filter(pk__gt=last)[:BATCH]):
        for row in batch:
            row.states = {
                system: {
                    key: getattr(row, column)
                    for key, column in {**kept[system], **EXTRA[system]}.items()
                }
                for system in EXTRA
                if getattr(row, f"{system}_after") is not None
            }
        PeriodRating.objects.bulk_update(batch, ["states"])
        last = batch[-1].pk


class Migration(migrations.Migration):
    dependencies = [("ratings", "0008_game_rating_points_at_tournaments_game")]

    operations = [
        migrations.AddField(
            model_name="periodrating",
            name="glicko2_volatility",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="periodrating",
            name="openskill_mu",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="periodrating",
            name="elo_games",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="periodrating",
            name="elo_reached_top",
            field=models.BooleanField(blank=True, null=True),
        ),
        migrations.RunPython(states_into_columns, columns_into_states),
        migrations.RemoveField(model_name="periodrating", name="states"),
    ]
