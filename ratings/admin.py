"""The ratings are derived from the closed results by the ratings layer (ratings/rate.py,
its jobs and the ``ratings`` command): read here, never edited, so a rating shown is
always the one the replay computes."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import GameRating, PeriodRating, PlayerRating, RatingJob, RatingLedger, RatingPeriod


class DerivedAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RatingJob)
class RatingJobAdmin(DerivedAdmin):
    list_display = ("id", "kind", "status", "created_at", "finished_at")
    list_filter = ("kind", "status")
    readonly_fields = ("created_at", "started_at", "finished_at")


@admin.register(PlayerRating)
class PlayerRatingAdmin(DerivedAdmin):
    list_display = ("player", "system", "rating", "deviation", "games", "last_played")
    list_filter = ("system",)
    search_fields = ("player__name",)


@admin.register(RatingPeriod)
class RatingPeriodAdmin(DerivedAdmin):
    list_display = ("id", "round", "evening", "closed_at", "rated_at", "games")


@admin.register(RatingLedger)
class RatingLedgerAdmin(DerivedAdmin):
    list_display = ("system", "params")


admin.site.register(PeriodRating, DerivedAdmin)
admin.site.register(GameRating, DerivedAdmin)
