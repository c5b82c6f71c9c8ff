"""Run the rating jobs by hand: the same services the Celery tasks call."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.models import RatingPeriod
from ratings.periods import period_for_evening, period_for_round
from ratings.rate import period_rate, ratings_recompute
from tournaments.models import Round, Tournament


class Command(BaseCommand):
    help = "Rate closed rounds and evenings not rated yet, or recompute everything."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["pending", "recompute"])

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        if action == "recompute":
            count = ratings_recompute()
            self.stdout.write(f"Recomputed {count} period(s).")
            return
        for round_ in Round.objects.filter(status="closed").exclude(
            tournament__kind=Tournament.Kind.EVENING
        ):
            period_for_round(round_)
        for evening in Tournament.objects.filter(
            kind=Tournament.Kind.EVENING, status=Tournament.Status.FINISHED
        ):
            period_for_evening(evening)
        rated = 0
        for period in RatingPeriod.objects.filter(rated_at__isnull=True).order_by(
            "closed_at", "id"
        ):
            outcome = period_rate(period=period)
            rated += 1
            self.stdout.write(f"{period}: {outcome}")
        self.stdout.write(f"{rated} period(s) handled.")
