"""A club's season: its evenings and tournaments over a period, ranked together.

Section 21: "we consider points *per time*". Every event's standings already weigh a
round by table size (a 2-player round and a 3-player round are worth the same), so a
season adds up each event's score; how is the organiser's choice (best N events, a
minimum to be ranked, points for taking part), docs/scoring.md "Seasons".
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Season(models.Model):
    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(max_length=160)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    best_of = models.PositiveSmallIntegerField(
        _("best events counted"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(999)],
        help_text=_("Only a player's best N event scores count; empty = every event."),
    )
    min_events = models.PositiveSmallIntegerField(
        _("events to be ranked"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(999)],
        help_text=_("A player is ranked once she has played this many of the season's events."),
    )
    participation_points = models.DecimalField(
        _("points for taking part"),
        max_digits=6,
        decimal_places=2,
        default=0,
        validators=[MinValueValidator(0)],
        help_text=_("Added for every event a player played, counted or not."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # With the events' own standings versions, the season's standings' cache key.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["club", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_unique_slug_in_club"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(condition=Q(min_events__gte=1), name="season_min_events_1"),
        ]

    def __str__(self) -> str:
        return self.name
