"""A club's seasons in the API: the season pages' actions through the same services
(tournaments/desk/services/seasons.py), and their standings and statistics. Anyone reads a
season, as its pages; only the club's organisers write."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.common import WriteThrottled
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_organise
from tournaments.desk.services import seasons as season_services
from tournaments.desk.services.tournaments import season_event_attach, season_event_detach
from tournaments.models import Club, Season, Tournament
from tournaments.standings.selectors.seasons import season_event_rows, season_standings_of
from tournaments.standings.selectors.statistics import season_statistics


class SeasonSerializer(serializers.ModelSerializer):
    """A season's settings and its published events (slugs, in the season's order)."""

    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    events = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = [
            "name",
            "slug",
            "club",
            "starts_on",
            "ends_on",
            "best_of",
            "min_events",
            "participation_points",
            "events",
        ]
        read_only_fields = fields

    def get_events(self, season: Season) -> list[str]:
        found = getattr(season, "published_events", None)
        if found is None:
            return list(season_event_rows(season).values_list("slug", flat=True))
        return [t.slug for t in found]


class SeasonWriteSerializer(serializers.Serializer):
    """The settings a season is created or changed with (docs/scoring.md §9). The
    ranges are the service's to check, naming the field."""

    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(
        max_length=160,
        required=False,
        allow_blank=True,
        help_text="Its address in the club (created only); empty: made from the name.",
    )
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    best_of = serializers.IntegerField(
        required=False, allow_null=True, help_text="Only the best N events count; null: all."
    )
    min_events = serializers.IntegerField(required=False)
    participation_points = serializers.DecimalField(max_digits=6, decimal_places=2, required=False)


class EventSerializer(serializers.Serializer):
    event = serializers.SlugField(help_text="The slug of an event of the season's club.")


class OrganisersWrite(permissions.BasePermission):
    """Anyone reads; a write needs a login (401 without), then the club's organisers
    (the view and the service check it: 403)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


CLUB = OpenApiParameter("club_slug", OpenApiTypes.STR, OpenApiParameter.PATH)


@extend_schema(parameters=[CLUB])
class SeasonViewSet(WriteThrottled, viewsets.ModelViewSet):
    """The club's seasons. POST creates one, PATCH changes its settings, DELETE removes
    it (its events stay); `events/` attaches an event, `events/{event}/` detaches it;
    `standings/` and `statistics/` are the season pages' JSON."""

    permission_classes = [OrganisersWrite]
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    filter_backends: list[Any] = []
    serializer_class = SeasonSerializer

    def club(self) -> Club:
        cached = getattr(self, "_club", None)
        if cached is None:
            cached = self._club = get_object_or_404(Club, slug=self.kwargs["club_slug"])
            if self.request.method not in permissions.SAFE_METHODS and not can_organise(
                self.request.user, cached
            ):
                self.permission_denied(self.request, "only this club's organisers may change it")
        return cached

    def get_queryset(self) -> QuerySet[Season]:
        published = Tournament.objects.filter(published=True).order_by("date", "created_at", "pk")
        return (
            Season.objects.filter(club=self.club())
            .select_related("club")
            .prefetch_related(Prefetch("events", queryset=published, to_attr="published_events"))
            .order_by("-starts_on", "-pk")
        )

    def _by(self) -> Actor:
        return Actor.director(self.request.user)

    def _answer(self, season: Season, code: int = status.HTTP_200_OK) -> Response:
        return Response(SeasonSerializer(season).data, status=code)

    @extend_schema(request=SeasonWriteSerializer, responses={201: SeasonSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = self.club()
        data = SeasonWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        slug = fields.pop("slug", "")
        season = season_services.season_create(club=club, by=self._by(), slug=slug, **fields)
        return self._answer(season, status.HTTP_201_CREATED)

    @extend_schema(request=SeasonWriteSerializer, responses={200: SeasonSerializer})
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.get_object()
        data = SeasonWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        if "slug" in changes:
            # The slug follows the name (as on the settings page).
            raise ServiceError(_("the slug follows the name; change the name"), field="slug")
        season = season_services.season_update(season=season, by=self._by(), **changes)
        return self._answer(season)

    def perform_destroy(self, instance: Season) -> None:
        season_services.season_delete(season=instance, by=self._by())

    def _event(self, slug: str) -> Tournament:
        event = Tournament.objects.filter(slug=slug, club=self.club()).first()
        if event is None:
            raise ServiceError(_("no event of this club has this slug"), field="event")
        return event

    @extend_schema(request=EventSerializer, responses={200: SeasonSerializer})
    @action(detail=True, methods=["post"], url_path="events")
    def attach(self, request: Request, club_slug: str, slug: str) -> Response:
        """The event (of this club, dated within the season) counts toward the season:
        the event's settings page's choice of season."""
        season = self.get_object()
        data = EventSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season_event_attach(
            season=season, tournament=self._event(data.validated_data["event"]), by=self._by()
        )
        return self._answer(self.get_object())

    @extend_schema(
        request=None,
        responses={200: SeasonSerializer},
        parameters=[OpenApiParameter("event", OpenApiTypes.STR, OpenApiParameter.PATH)],
    )
    @action(detail=True, methods=["delete"], url_path=r"events/(?P<event>[-a-zA-Z0-9_]+)")
    def detach(self, request: Request, club_slug: str, slug: str, event: str) -> Response:
        """The event no longer counts toward the season; it stays an event of the club."""
        season = self.get_object()
        season_event_detach(season=season, tournament=self._event(event), by=self._by())
        return self._answer(self.get_object())

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, club_slug: str, slug: str) -> Response:
        """The season's standings, as the page's `?format=json`: its events, the ranked
        rows and those not yet ranked, each with the events she played."""
        season = self.get_object()
        standings = season_standings_of(season=season)
        return Response({"season": season.slug, "name": season.name, **standings.as_json()})

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def statistics(self, request: Request, club_slug: str, slug: str) -> Response:
        """The season's statistics, as its statistics page's `?format=json` (the events the
        caller may see)."""
        season = self.get_object()
        return Response(season_statistics(season=season, user=request.user).as_json())
