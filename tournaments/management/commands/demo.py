"""Load the demo (idempotent: running it again adds nothing) and print the admin login."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournaments.demo import demo_load

DEMO_ADMIN = "admin"
DEMO_PASSWORD = "pentagame"  # local demo only; the quick start prints it


class Command(BaseCommand):
    help = "Load the demo club, players, tournament, evening and ratings (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--address",
            default="127.0.0.1:8000",
            help="host:port the site is served on, for the printed admin login",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        admin, created = user_model.objects.get_or_create(
            username=DEMO_ADMIN, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            admin.set_password(DEMO_PASSWORD)
            admin.save()
        summary = demo_load(organiser=admin)
        self.stdout.write(summary)
        self.stdout.write(
            self.style.SUCCESS(
                f"Admin login: http://{options['address']}/admin/  user {DEMO_ADMIN}  "
                f"password {DEMO_PASSWORD}"
            )
        )
