from django.contrib import admin

from .models import GameRating, PeriodRating, PlayerRating, RatingJob, RatingLedger, RatingPeriod


@admin.register(RatingJob)
class RatingJobAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "created_at", "finished_at")
    list_filter = ("kind", "status")
    readonly_fields = ("created_at", "started_at", "finished_at")


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("player", "system", "rating", "deviation", "games", "last_played")
    list_filter = ("system",)
    search_fields = ("player__name",)


@admin.register(RatingPeriod)
class RatingPeriodAdmin(admin.ModelAdmin):
    list_display = ("id", "round", "evening", "closed_at", "rated_at", "games")


@admin.register(RatingLedger)
class RatingLedgerAdmin(admin.ModelAdmin):
    list_display = ("system", "params")


admin.site.register(PeriodRating)
admin.site.register(GameRating)
