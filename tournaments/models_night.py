"""What a player says of her own night through her seat's link, and what the organiser
sees of it (docs/results.md, "Players manage their own night"): leaving after this
round, skipping the next one, late for her table; the organiser's check that a seat
is there, and a no-show's forfeit. Every time here is the server's."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SeatNotice(models.Model):
    """One thing said of a seat in its round, open until the organiser undoes it (or,
    for a late player, until she is seen). At most one open notice of each kind per
    seat: the database is the last guard against a notice or a forfeit written twice
    (two taps, the no-show sweep running twice)."""

    class Kind(models.TextChoices):
        # The player's own, from her link.
        LEAVING = "leaving", _("leaving after this round")
        SKIP = "skip", _("skips the next round")
        LATE = "late", _("late, asks her table to wait")
        # The organiser's: the player is there (a check), or a no-show was forfeited.
        SEEN = "seen", _("seen at the table")
        FORFEIT = "forfeit", _("forfeited as a no-show")

    seat = models.ForeignKey("tournaments.Seat", on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # The server's clock, never a device's.
    at = models.DateTimeField(default=timezone.now)
    # The round said of, for a skip: the next round's number.
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # Undone by the organiser (or a late flag cleared): when and by whom, as text.
    cleared_at = models.DateTimeField(null=True, blank=True)
    cleared_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["seat", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "kind"],
                condition=Q(cleared_at__isnull=True),
                name="seat_notice_once_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.seat_id})"
