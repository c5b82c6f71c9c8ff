from typing import Any

from django.contrib import admin

from .models import (
    AuditEntry,
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    ResultSubmission,
    Round,
    Seat,
    Table,
    Tournament,
)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "rating_system")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "user")
    list_filter = ("club",)
    search_fields = ("name",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "kind", "status", "published", "date")
    list_filter = ("kind", "status", "published")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)
    inlines = [EntryInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "is_bye")
    inlines = [SeatInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "closed_at")
    list_filter = ("status",)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "tournament", "user", "action", "target")
    readonly_fields = ("at", "tournament", "user", "action", "target", "before", "after")


admin.site.register(ForbiddenPair)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read here; results are written only through the results service (their
    submissions are the audit trail), so the admin cannot edit them."""

    list_display = ("__str__", "status", "out_1", "out_2", "out_3", "entered_by", "entered_at")
    list_filter = ("status",)

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(admin.ModelAdmin):
    """The results' audit trail: read here, written only through the results service."""

    list_display = ("game", "state", "by_user", "by_seat", "out", "created_at")
    list_filter = ("state",)

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
