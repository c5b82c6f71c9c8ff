from django.db import migrations, models


def name_the_actors(apps, schema_editor):
    """Entries written before the field name their user, if any; the rest were
    commands (the demo, scripts), as ``audit_record`` now says."""
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    for entry in AuditEntry.objects.select_related("user").only("pk", "user__username"):
        actor = entry.user.username[:150] if entry.user else "command"
        AuditEntry.objects.filter(pk=entry.pk).update(actor=actor)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_tournament_standings_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="actor",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.RunPython(name_the_actors, migrations.RunPython.noop),
    ]
