"""The admin writes only through the services (tournaments/services/), as the signed-in
staff member (``Actor.director``), like the organiser's pages and the API: the same
checks, the same audit log, the same freshness counter. What no service changes (a
round's raw fields, tables and seats, entries' raw fields) is read here and changed on
the organiser's pages, which go through the services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.desk.services.clubs import (
    CLUB_FIELDS,
    PLAYER_FIELDS,
    club_create,
    club_delete,
    club_organisers_set,
    club_update,
    player_create,
    player_delete,
    player_update,
)
from tournaments.desk.services.tournaments import (
    EDITABLE,
    FROZEN,
    GUARDED,
    forbidden_pair_add,
    forbidden_pair_remove,
    round_delete,
    tournament_create,
    tournament_delete,
    tournament_directors_set,
    tournament_update,
)
from tournaments.models import (
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


def _by(request: HttpRequest) -> Actor:
    return Actor.director(request.user)


def _adopt(obj: Model, saved: Model) -> None:
    """The admin goes on with the object it built (logging, the redirect): give it the
    row the service wrote."""
    for field in obj._meta.concrete_fields:
        setattr(obj, field.attname, getattr(saved, field.attname))
    obj._state.adding = False
    obj._state.db = saved._state.db


class ServiceAdmin(admin.ModelAdmin):
    """A refused write (ServiceError, ConflictError, or the service's own permission
    check) shows as the admin's error message; the form's transaction is rolled back, so
    nothing changes."""

    def _refused(self, request: HttpRequest, message: str) -> HttpResponse:
        self.message_user(request, message, messages.ERROR)
        return HttpResponseRedirect(request.get_full_path())

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ServiceError as exc:
            return self._refused(request, exc.message)
        except PermissionDenied as exc:
            if request.method != "POST" or not str(exc):
                raise  # the admin's own check: its usual 403
            return self._refused(request, str(exc))

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            return super().delete_view(request, object_id, extra_context)
        except ServiceError as exc:
            return self._refused(request, exc.message)
        except PermissionDenied as exc:
            if request.method != "POST" or not str(exc):
                raise
            return self._refused(request, str(exc))

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method != "POST":
            return super().changelist_view(request, extra_context)
        try:
            # One bulk action (delete the selected) is all or nothing.
            with transaction.atomic():
                return super().changelist_view(request, extra_context)
        except ServiceError as exc:
            return self._refused(request, exc.message)
        except PermissionDenied as exc:
            if not str(exc):
                raise
            return self._refused(request, str(exc))

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # The delete service removes what belongs to the object and checks who may:
        # the read-only admins of those parts (rounds, games, audit) do not veto it.
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _changes(form: ModelForm, fields: tuple[str, ...]) -> dict[str, Any]:
    return {f: form.cleaned_data[f] for f in form.changed_data if f in fields}


class EntryInline(ReadOnlyInline):
    """Read here: players are entered, withdrawn and checked in on the tournament's
    entries page (services/entries.py), which numbers seeds and marks late entries."""

    model = Entry
    fields = ("player", "seed", "status", "rating", "checked_in", "joined_round")
    readonly_fields = fields


@admin.register(Club)
class ClubAdmin(ServiceAdmin):
    list_display = ("name", "city", "rating_system")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        if change:
            saved = club_update(club=obj, by=_by(request), **_changes(form, CLUB_FIELDS))
        else:
            fields = {f: form.cleaned_data[f] for f in CLUB_FIELDS if f in form.cleaned_data}
            saved = club_create(by=_by(request), **fields)
        _adopt(obj, saved)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        if "organisers" in form.changed_data or not change:
            club_organisers_set(
                club=form.instance, organisers=form.cleaned_data["organisers"], by=_by(request)
            )

    def delete_model(self, request: HttpRequest, obj: Club) -> None:
        club_delete(club=obj, by=_by(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        for club in queryset:
            club_delete(club=club, by=_by(request))


@admin.register(Player)
class PlayerAdmin(ServiceAdmin):
    list_display = ("name", "club", "user")
    list_filter = ("club",)
    search_fields = ("name",)
    fields = PLAYER_FIELDS

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        by = _by(request)
        if change:
            saved = player_update(player=obj, by=by, **_changes(form, PLAYER_FIELDS))
        else:
            saved = player_create(name=obj.name, club=obj.club, by=by)
            if obj.user is not None:
                saved = player_update(player=saved, user=obj.user, by=by)
        _adopt(obj, saved)

    def delete_model(self, request: HttpRequest, obj: Player) -> None:
        player_delete(player=obj, by=_by(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            player_delete(player=player, by=_by(request))


@admin.register(Tournament)
class TournamentAdmin(ServiceAdmin):
    list_display = ("name", "club", "kind", "status", "published", "date")
    list_filter = ("kind", "status", "published")
    filter_horizontal = ("directors",)
    inlines = [EntryInline]
    # Derived by the services: the address from the name, the status from the rounds.
    readonly_fields = ("slug", "status", "created_by")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Once played, these change only through the settings page or the API, which
        # ask for confirmation and recompute (services/tournaments.py).
        if obj is not None and obj.rounds.exists():
            return (*self.readonly_fields, *GUARDED, *FROZEN)
        return self.readonly_fields

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            saved = tournament_update(tournament=obj, by=_by(request), **_changes(form, EDITABLE))
        else:
            settings = {f: form.cleaned_data[f] for f in EDITABLE if f in form.cleaned_data}
            saved = tournament_create(by=_by(request), **settings)
        _adopt(obj, saved)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # The entries inline is read-only: nothing of it is written (the admin's change
        # message still reads what it saved).
        for formset in formsets:
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        directors = form.cleaned_data.get("directors")
        if directors is not None and (not change or "directors" in form.changed_data):
            # On creation the service made the creator a director: keep them.
            keep = [] if change else list(form.instance.directors.all())
            tournament_directors_set(
                tournament=form.instance, directors=[*keep, *directors], by=_by(request)
            )

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        tournament_delete(tournament=obj, by=_by(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            tournament_delete(tournament=tournament, by=_by(request))


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "entry", "report_token")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    """Read here: tables and seats are written by pairing, re-pairing and the manual
    swap (services/rounds.py) on the organiser's round pages."""

    list_display = ("__str__", "is_bye")
    inlines = [SeatInline]


@admin.register(Round)
class RoundAdmin(ServiceAdmin):
    """Read here (pairing, publishing and closing are the organiser's round pages,
    services/rounds.py); deleting goes through ``round_delete``: the last round only,
    with its ratings replayed."""

    list_display = ("tournament", "number", "status", "closed_at")
    list_filter = ("status",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        round_delete(round=obj, by=_by(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        # Last round first: only the last round of a tournament can be deleted.
        for round_ in queryset.order_by("tournament_id", "-number"):
            round_delete(round=round_, by=_by(request))


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(ServiceAdmin):
    """Added and removed through the services; a pair is not edited (remove it and add
    another)."""

    list_display = ("tournament", "first", "second", "reason")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ForbiddenPair, form: Any, change: bool) -> None:
        saved = forbidden_pair_add(
            tournament=obj.tournament,
            first=obj.first,
            second=obj.second,
            reason=obj.reason,
            by=_by(request),
        )
        _adopt(obj, saved)

    def delete_model(self, request: HttpRequest, obj: ForbiddenPair) -> None:
        forbidden_pair_remove(pair=obj, by=_by(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[ForbiddenPair]) -> None:
        for pair in queryset:
            forbidden_pair_remove(pair=pair, by=_by(request))


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The audit log: written by the services only, never edited."""

    list_display = ("at", "tournament", "user", "action", "target")
    readonly_fields = ("at", "tournament", "user", "action", "target", "before", "after")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    """Read here; results are written only through the results service (their
    submissions are the audit trail), so the admin cannot edit them."""

    list_display = ("__str__", "status", "out_1", "out_2", "out_3", "entered_by", "entered_at")
    list_filter = ("status",)


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(ReadOnlyAdmin):
    """The results' audit trail: read here, written only through the results service."""

    list_display = ("game", "state", "by_user", "by_seat", "out", "created_at")
    list_filter = ("state",)
