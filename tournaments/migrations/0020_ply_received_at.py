# Issue 41: the egg timer reads the server's clock. A ply keeps the time its device
# claims (`at`, a label) beside the time the server received it (`received_at`).

import django.utils.timezone
from django.db import migrations, models
from django.db.models import F


def received_when_stored(apps, schema_editor):
    # Before this, `at` was what the timer read: the rows keep their timer as it was.
    apps.get_model("tournaments", "Ply").objects.update(received_at=F("at"))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_idempotency_request_hash"),
    ]

    operations = [
        migrations.AddField(
            model_name="ply",
            name="received_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(received_when_stored, migrations.RunPython.noop),
    ]
