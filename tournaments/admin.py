from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

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
from .services.actor import Actor
from .services.clubs import player_rename
from .services.freshness import standings_changed
from .services.tournaments import FROZEN, GUARDED, tournament_delete


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

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        # A new name goes through the service, which refreshes every standings it shows
        # in; the other fields (club, account) are the admin's own business.
        name = obj.name
        if change and "name" in form.changed_data:
            obj.name = Player.objects.get(pk=obj.pk).name
            super().save_model(request, obj, form, change)
            player_rename(player=obj, name=name, by=Actor.director(request.user))
            obj.name = name
        else:
            super().save_model(request, obj, form, change)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "kind", "status", "published", "date")
    list_filter = ("kind", "status", "published")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)
    inlines = [EntryInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Once played, these change only through the settings page or the API, which
        # ask for confirmation and recompute (services/tournaments.py).
        if obj is not None and obj.rounds.exists():
            return (*GUARDED, *FROZEN)
        return ()

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change:
            standings_changed(tournament=obj)

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        tournament_delete(tournament=obj, by=Actor.director(request.user))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            tournament_delete(tournament=tournament, by=Actor.director(request.user))


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
