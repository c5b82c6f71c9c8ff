"""Per-seat private report links replace the table's one link (which let one phone act
for every seat), and results become a list of submissions.

Existing seats get fresh links; every game that already has a result gets the
submission it would have had: a director's entry, or a player's waiting or confirmed
report (the reporting seat found by its position)."""

import django.db.models.deletion
import secrets

import tournaments.models
from django.conf import settings
from django.db import migrations, models


def new_report_token():
    return secrets.token_urlsafe(24)


def fill_seat_tokens(apps, schema_editor):
    Seat = apps.get_model("tournaments", "Seat")
    seats = list(Seat.objects.only("pk"))
    for seat in seats:
        seat.report_token = new_report_token()
    Seat.objects.bulk_update(seats, ["report_token"], batch_size=2000)


def fill_table_tokens(apps, schema_editor):
    """Going back: the tables get links again (one each, as before this migration)."""
    Table = apps.get_model("tournaments", "Table")
    tables = list(Table.objects.only("pk"))
    for table in tables:
        table.report_token = secrets.token_hex(16)
    Table.objects.bulk_update(tables, ["report_token"], batch_size=2000)


def submissions_for_results(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    Seat = apps.get_model("tournaments", "Seat")
    Submission = apps.get_model("tournaments", "ResultSubmission")
    seats = {(s.table_id, s.position): s.pk for s in Seat.objects.only("table_id", "position")}
    rows = []
    for game in Game.objects.exclude(status="pending").iterator(chunk_size=2000):
        out = [getattr(game, f"out_{i}") for i in range(1, 5)]
        n = sum(1 for s in range(1, 5) if (game.table_id, s) in seats)
        seat = seats.get((game.table_id, game.reported_by_position))
        if game.reported_by_position is None or seat is None:
            state = "entered"
            seat = None
        else:
            state = "confirmed" if game.confirmed else "reported"
        rows.append(
            Submission(
                game_id=game.pk,
                by_user_id=game.entered_by_id if seat is None else None,
                by_seat_id=seat,
                state=state,
                status=game.status,
                out=out[: max(n, 2)],
                moves=game.moves,
                colours_out=game.colours_out,
                setup=game.setup,
            )
        )
        if len(rows) >= 2000:
            Submission.objects.bulk_create(rows)
            rows = []
    Submission.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_game_moves_from_games'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Nullable first, so that going back can re-add the column empty and fill it
        # before it is unique again.
        migrations.AlterField(
            model_name='table',
            name='report_token',
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(migrations.RunPython.noop, fill_table_tokens),
        migrations.RemoveField(
            model_name='table',
            name='report_token',
        ),
        migrations.AddField(
            model_name='seat',
            name='report_token',
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(fill_seat_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='seat',
            name='report_token',
            field=models.CharField(
                default=tournaments.models.new_report_token, max_length=64, unique=True
            ),
        ),
        migrations.CreateModel(
            name='ResultSubmission',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('state', models.CharField(choices=[('entered', 'entered by a director (final)'), ('reported', 'reported, awaiting an opponent'), ('confirmed', 'confirmed'), ('disputed', 'disputed'), ('discarded', 'discarded')], max_length=12)),
                ('status', models.CharField(max_length=12)),
                ('out', models.JSONField(default=list)),
                ('moves', models.JSONField(blank=True, default=list)),
                ('colours_out', models.JSONField(blank=True, default=dict)),
                ('setup', models.JSONField(blank=True, default=dict)),
                ('decided_at', models.DateTimeField(blank=True, null=True)),
                ('by_seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='submissions', to='tournaments.seat')),
                ('by_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('decided_by_seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.seat')),
                ('decided_by_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='submissions', to='tournaments.game')),
            ],
            options={
                'ordering': ['game', 'created_at', 'id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('by_seat__isnull', False)), fields=('game', 'by_seat'), name='submission_once_per_seat'), models.CheckConstraint(condition=models.Q(('by_seat__isnull', True), models.Q(('state', 'entered'), _negated=True), _connector='OR'), name='submission_player_not_entered'), models.CheckConstraint(condition=models.Q(('by_seat__isnull', False), ('state__in', ['entered', 'discarded']), _connector='OR'), name='submission_director_final'), models.CheckConstraint(condition=models.Q(('by_seat', models.F('decided_by_seat')), _negated=True), name='submission_not_confirmed_by_reporter')],
            },
        ),
        migrations.RunPython(submissions_for_results, migrations.RunPython.noop),
    ]
