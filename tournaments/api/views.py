"""The REST API: thin views over the same services and selectors as the pages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, TypeVar

import django_filters
from django.core.cache import cache
from django.db import DataError
from django.db.models import Count, QuerySet
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import filters, generics, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from tournaments.api import serializers as s
from tournaments.api.middleware import standings_headers
from tournaments.api.permissions import DirectorsWrite
from tournaments.api.schema import ApiSchema
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_direct, can_organise, can_view
from tournaments.core.poll import etag_matches
from tournaments.core.visibility import (
    players_visible_to,
    seed_seasons,
    seed_sources,
    tournaments_visible_to,
)
from tournaments.desk.services import clubs as club_services
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services import pairing_edit
from tournaments.desk.services import rounds as round_services
from tournaments.desk.services import teams as team_services
from tournaments.desk.services import tournaments as tournament_services
from tournaments.desk.services.evenings import evening_close, evening_reopen
from tournaments.desk.services.pairing_edit import NEW_TABLE, Target
from tournaments.models import (
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    ResultSubmission,
    Round,
    Season,
    Seat,
    Team,
    Tournament,
)
from tournaments.results.offline import idempotent, outcome_body, queued_at
from tournaments.results.selectors.rounds import round_tables
from tournaments.results.services import results as result_services
from tournaments.results.services.plies import (
    game_timer_pause,
    game_timer_resume,
    ply_conflicts_clear,
)
from tournaments.results.services.result_path import (
    Outcome,
    ResultEntry,
    check_reporting_seat,
    game_confirm_sync,
    game_result_sync,
)
from tournaments.standings.selectors.standings import (
    standings_etag,
    standings_key,
    standings_token,
    tournament_standings,
)
from tournaments.standings.selectors.teams import team_standings
from tournaments.transfer.services import tournament_import_document


class SearchFilter(filters.SearchFilter):
    """`?search=`, whose bad values (a NUL character) are reported under its name."""

    def get_search_terms(self, request: Request) -> list[str]:
        try:
            return list(super().get_search_terms(request))
        except ValidationError as exc:
            raise ValidationError({self.search_param: exc.detail}) from None


class WriteThrottled:
    """Writes are throttled (scope "writes"); reads are not. Also the API's schema
    (documented errors) and list filters."""

    throttle_scope = "writes"
    schema = ApiSchema()
    filter_backends = [DjangoFilterBackend, filters.OrderingFilter, SearchFilter]

    def get_throttles(self) -> list[Any]:
        request = self.request  # type: ignore[attr-defined]
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return []
        return [ScopedRateThrottle()]


def visible_tournaments(request: Request) -> QuerySet[Tournament]:
    return tournaments_visible_to(request.user)


class ClubViewSet(WriteThrottled, viewsets.ModelViewSet):
    serializer_class = s.ClubSerializer
    queryset = Club.objects.order_by("name")
    lookup_field = "slug"
    filterset_fields = ["city"]
    ordering_fields = ["name"]

    def perform_create(self, serializer: Any) -> None:
        if not self.request.user.is_staff:
            self.permission_denied(self.request, "only staff create clubs")
        serializer.instance = club_services.club_create(
            by=Actor.director(self.request.user), **serializer.validated_data
        )

    def perform_update(self, serializer: Any) -> None:
        serializer.instance = club_services.club_update(
            club=serializer.instance,
            by=Actor.director(self.request.user),
            **serializer.validated_data,
        )

    def perform_destroy(self, instance: Club) -> None:
        club_services.club_delete(club=instance, by=Actor.director(self.request.user))

    def check_object_permissions(self, request: Request, obj: Any) -> None:
        super().check_object_permissions(request, obj)
        if request.method not in ("GET", "HEAD", "OPTIONS") and not can_organise(request.user, obj):
            self.permission_denied(request, "only this club's organisers may change it")

    @extend_schema(request=s.ImportSerializer, responses={201: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="import", filter_backends=[])
    def import_tournament(self, request: Request, slug: str) -> Response:
        """Import a tournament document (a tournament's `export.json`) into this club, all
        or nothing: the organiser's import page as an operation."""
        club = self.get_object()
        data = s.ImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_import_document(
            document=data.validated_data["document"],
            club=club,
            players_by_name=data.validated_data["players_by_name"],
            by=Actor.director(request.user),
        )
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class PlayerViewSet(WriteThrottled, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = s.PlayerSerializer
    queryset = Player.objects.select_related("club").order_by("name")
    filterset_fields = ["club__slug"]
    ordering_fields = ["name"]
    search_fields = ["name"]

    def get_queryset(self) -> QuerySet[Player]:
        return players_visible_to(self.request.user).select_related("club").order_by("name")

    def perform_create(self, serializer: Any) -> None:
        club = serializer.validated_data.get("club")
        if not (self.request.user.is_staff or (club and can_organise(self.request.user, club))):
            self.permission_denied(self.request, "only club organisers add players to their club")
        serializer.instance = club_services.player_create(
            name=serializer.validated_data["name"], club=club, by=Actor.director(self.request.user)
        )


class TournamentViewSet(WriteThrottled, viewsets.ModelViewSet):
    """PATCH/PUT of a setting the played rounds depend on (game, table policy, target,
    games per turn, time factors) is a 409 naming the field once round 1 is paired,
    unless the body says ``"recompute": true``; the kind never changes then."""

    serializer_class = s.TournamentSerializer
    permission_classes = [DirectorsWrite]
    lookup_field = "slug"
    filterset_fields = ["kind", "status", "club__slug", "published"]
    ordering_fields = ["date", "name", "created_at"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return (
            visible_tournaments(self.request)
            .select_related("club")
            .order_by("-date", "-created_at")
        )

    def perform_create(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        data.pop("recompute", None)
        uneven_turns = bool(data.pop("uneven_turns", False))
        club = data.pop("club")
        if not can_organise(self.request.user, club):
            self.permission_denied(self.request, "only this club's organisers create tournaments")
        serializer.instance = tournament_services.tournament_create(
            club=club, by=Actor.director(self.request.user), uneven_turns=uneven_turns, **data
        )

    def perform_update(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        recompute = bool(data.pop("recompute", False))
        uneven_turns = bool(data.pop("uneven_turns", False))
        serializer.instance = tournament_services.tournament_update(
            tournament=serializer.instance,
            by=Actor.director(self.request.user),
            recompute=recompute,
            uneven_turns=uneven_turns,
            **data,
        )

    def perform_destroy(self, instance: Tournament) -> None:
        tournament_services.tournament_delete(
            tournament=instance, by=Actor.director(self.request.user)
        )

    @extend_schema(request=s.AddRoundsSerializer, responses={200: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="add-rounds", filter_backends=[])
    def add_rounds(self, request: Request, slug: str) -> Response:
        """Plan `count` more rounds, also after the tournament has finished (it runs
        again)."""
        data = s.AddRoundsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_services.tournament_add_rounds(
            tournament=self.get_object(),
            count=data.validated_data["count"],
            by=Actor.director(request.user),
        )
        return Response(s.TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="close-evening", filter_backends=[])
    def close_evening(self, request: Request, slug: str) -> Response:
        """Close a club evening (every round closed) and rate it as one period."""
        tournament = evening_close(tournament=self.get_object(), by=Actor.director(request.user))
        return Response(s.TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="reopen-evening", filter_backends=[])
    def reopen_evening(self, request: Request, slug: str) -> Response:
        """Reopen a closed club evening; its rating is taken back until it is closed again."""
        tournament = evening_reopen(tournament=self.get_object(), by=Actor.director(request.user))
        return Response(s.TournamentSerializer(tournament).data)


class TournamentScoped(WriteThrottled):
    """Views under /tournaments/{slug}/: load it, check who may read and write."""

    permission_classes = [DirectorsWrite]

    def tournament(self) -> Tournament:
        cached = getattr(self, "_tournament", None)
        if cached is None:
            request: Request = self.request  # type: ignore[attr-defined]
            cached = get_object_or_404(Tournament, slug=self.kwargs["slug"])  # type: ignore[attr-defined]
            if not can_view(request.user, cached):
                raise Http404("no such tournament")
            if request.method not in ("GET", "HEAD", "OPTIONS") and not can_direct(
                request.user, cached
            ):
                self.permission_denied(request, "only this tournament's directors may change it")  # type: ignore[attr-defined]
            self._tournament = cached
        return cached

    def directors_only(self) -> Tournament:
        """The tournament, for its directors only: reads too (forbidden pairs and their
        reasons, players' reports are the organiser's business)."""
        tournament = self.tournament()
        request: Request = self.request  # type: ignore[attr-defined]
        if not can_direct(request.user, tournament):
            self.permission_denied(request, "only this tournament's directors may see this")  # type: ignore[attr-defined]
        return tournament


ROUND_NUMBER = OpenApiParameter(
    "round_number",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="the round (1 to 99)",
)


class EntryViewSet(TournamentScoped, viewsets.ReadOnlyModelViewSet):
    """The tournament's players. POST enters one (after round 1 is paired: a late entry,
    with her own score per missed round), PATCH corrects one, DELETE removes one who has
    not played yet; `skips/{round_number}/` announces a round she will not play."""

    serializer_class = s.EntrySerializer
    lookup_value_regex = "[0-9]+"
    filterset_fields = ["status", "checked_in"]
    ordering_fields = ["seed"]

    def get_queryset(self) -> QuerySet[Entry]:
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        return (
            self.tournament()
            .entries.select_related("player")
            .prefetch_related("skips")
            .order_by("seed")
        )

    @extend_schema(request=s.EntryCreateSerializer, responses={201: s.EntrySerializer})
    def create(self, request: Request, slug: str) -> Response:
        """Enter a player; after round 1 is paired she is a late entry, joining from the
        next round, and `missed_round_score` is her score for each round missed."""
        data = s.EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_services.entry_add(
            tournament=self.tournament(), by=Actor.director(request.user), **data.validated_data
        )
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.EntryUpdateSerializer, responses={200: s.EntrySerializer})
    def partial_update(self, request: Request, slug: str, pk: str) -> Response:
        """Correct an entry: the player's name, the rating at entry, a late entry's score
        per missed round. Only the fields given change."""
        data = s.EntryUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry_services.entry_update(
            entry=self.get_object(), by=Actor.director(request.user), **data.validated_data
        )
        return Response(s.EntrySerializer(self.get_object()).data)

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, slug: str, pk: str) -> Response:
        """Remove an entry before the player's first round (a typo, a no-show); one who
        has played is withdrawn instead (409)."""
        entry_services.entry_delete(entry=self.get_object(), by=Actor.director(request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        methods=["PUT"],
        parameters=[ROUND_NUMBER],
        request=s.SkipRequestSerializer,
        responses={200: s.EntrySerializer},
        description="The player announced she will not play this round (not paired yet): "
        "a requested bye (`bye`: true, scored as the tournament's bye) or an absence.",
    )
    @extend_schema(
        methods=["DELETE"],
        parameters=[ROUND_NUMBER],
        request=None,
        responses={200: s.EntrySerializer},
        description="Take back an announced bye or absence of a round not yet paired.",
    )
    @action(detail=True, methods=["put", "delete"], url_path=r"skips/(?P<round_number>[0-9]+)")
    def skip(self, request: Request, slug: str, pk: str, round_number: str) -> Response:
        number = int(round_number)
        if not 1 <= number <= 99:
            raise ValidationError({"round_number": ["choose a round from 1 to 99"]})
        entry = self.get_object()
        by = Actor.director(request.user)
        if request.method == "PUT":
            data = s.SkipRequestSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            entry_services.entry_skip(
                entry=entry, round_number=number, bye=data.validated_data["bye"], by=by
            )
        else:
            entry_services.entry_unskip(entry=entry, round_number=number, by=by)
        return Response(s.EntrySerializer(self.get_object()).data)

    @extend_schema(request=s.ReseedRequestSerializer, responses={200: s.ReseedSerializer})
    @action(detail=False, methods=["post"], pagination_class=None, filter_backends=[])
    def reseed(self, request: Request, slug: str) -> Response:
        """Seeds follow the ratings, highest first; an entry without a rating takes the
        player's current one if she has one, and the unrated are seeded last. With
        `event`, the final standings of that earlier event of the club come first (the
        book's prior ranking, section 21), the players new since then after them; with
        `season`, that season's standings of the club the same way."""
        data = s.ReseedRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.tournament()
        source: Tournament | Season | None = None
        if "season" in data.validated_data:
            slug_ = data.validated_data["season"]
            source = next((x for x in seed_seasons(tournament) if x.slug == slug_), None)
            if source is None:
                raise ServiceError(_("choose a season of this club"), field="season")
        elif "event" in data.validated_data:
            event = data.validated_data["event"]
            source = next((t for t in seed_sources(tournament) if t.slug == event), None)
            if source is None:
                raise ServiceError(
                    _("choose a finished earlier event of this club"),
                    field="event",
                )
        unrated = entry_services.entries_reseed_by_rating(
            tournament=tournament, by=Actor.director(request.user), source=source
        )
        return Response(
            s.ReseedSerializer({"unrated": unrated, "entries": self.get_queryset()}).data
        )

    @extend_schema(request=None, responses={200: s.CheckInEveryoneSerializer})
    @action(
        detail=False,
        methods=["post"],
        url_path="check-in-everyone",
        pagination_class=None,
        filter_backends=[],
    )
    def check_in_everyone(self, request: Request, slug: str) -> Response:
        """Check in everyone entered and not withdrawn."""
        count = entry_services.entries_check_in_all(
            tournament=self.tournament(), by=Actor.director(request.user)
        )
        return Response({"checked_in": count})

    @extend_schema(request=s.PasteSerializer, responses={201: s.EntrySerializer(many=True)})
    @action(detail=False, methods=["post"], pagination_class=None, filter_backends=[])
    def paste(self, request: Request, slug: str) -> Response:
        data = s.PasteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = pasted(
            "players",
            lambda: entry_services.entries_paste(
                tournament=self.tournament(),
                text=data.validated_data["players"],
                choices=data.validated_data.get("choices"),
                by=Actor.director(request.user),
            ),
        )
        return Response(
            s.EntrySerializer(
                self.get_queryset().filter(pk__in=[e.pk for e in entries]), many=True
            ).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses={200: s.EntrySerializer})
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, slug: str, pk: str) -> Response:
        entry = entry_services.entry_withdraw(
            entry=self.get_object(), by=Actor.director(request.user)
        )
        return Response(s.EntrySerializer(entry).data)

    @extend_schema(request=None, responses={200: s.EntrySerializer})
    @action(detail=True, methods=["post"])
    def readmit(self, request: Request, slug: str, pk: str) -> Response:
        """Undo a withdrawal: paired again from the next round."""
        entry = entry_services.entry_readmit(
            entry=self.get_object(), by=Actor.director(request.user)
        )
        return Response(s.EntrySerializer(entry).data)

    @extend_schema(request=s.CheckInSerializer, responses={200: s.EntrySerializer})
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, slug: str, pk: str) -> Response:
        """At the door (``present``: false takes it back)."""
        data = s.CheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_services.entry_check_in(
            entry=self.get_object(),
            present=data.validated_data["present"],
            by=Actor.director(request.user),
        )
        return Response(s.EntrySerializer(entry).data)


class ForbiddenPairViewSet(
    TournamentScoped, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet
):
    """Two entries the pairing never seats together (family, the same small club), from
    the next pairing on; DELETE lets them meet again. Only the tournament's directors see
    and change them (a reason may be private)."""

    serializer_class = s.ForbiddenPairSerializer
    lookup_value_regex = "[0-9]+"
    filter_backends: list[Any] = []
    error_codes = ("403",)

    def get_queryset(self) -> QuerySet[ForbiddenPair]:
        if getattr(self, "swagger_fake_view", False):
            return ForbiddenPair.objects.none()
        return self.directors_only().forbidden_pairs.order_by("pk")

    @extend_schema(request=s.ForbiddenPairSerializer, responses={201: s.ForbiddenPairSerializer})
    def create(self, request: Request, slug: str) -> Response:
        data = s.ForbiddenPairSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.directors_only()
        entries = tournament.entries.select_related("player")
        chosen = {}
        for name in ("first", "second"):
            chosen[name] = entries.filter(pk=data.validated_data[f"{name}_id"]).first()
            if chosen[name] is None:
                raise ValidationError({name: ["no such entry in this tournament"]})
        pair = tournament_services.forbidden_pair_add(
            tournament=tournament,
            first=chosen["first"],
            second=chosen["second"],
            reason=data.validated_data["reason"],
            by=Actor.director(request.user),
        )
        return Response(s.ForbiddenPairSerializer(pair).data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance: ForbiddenPair) -> None:
        tournament_services.forbidden_pair_remove(
            pair=instance, by=Actor.director(self.request.user)
        )


class TeamViewSet(TournamentScoped, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """The teams of a 2 vs 2 event; POST enters a team of two players, PATCH renames
    one, DELETE dissolves one before its first round (its players stay entered), and
    ``standings/`` lists the teams' standings (the players' are ``../standings/``)."""

    serializer_class = s.TeamSerializer
    lookup_value_regex = "[0-9]+"
    ordering_fields = ["seed"]

    def get_queryset(self) -> QuerySet[Team]:
        if getattr(self, "swagger_fake_view", False):
            return Team.objects.none()
        return (
            self.tournament()
            .teams.select_related("first__player", "second__player")
            .prefetch_related("first__skips", "second__skips")
            .order_by("seed")
        )

    @extend_schema(request=s.TeamCreateSerializer, responses={201: s.TeamSerializer})
    def create(self, request: Request, slug: str) -> Response:
        data = s.TeamCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_add(
            tournament=self.tournament(), by=Actor.director(request.user), **data.validated_data
        )
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.TeamSerializer})
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, slug: str, pk: str) -> Response:
        """Withdraw the team (both players); it is not paired again."""
        team = team_services.team_withdraw(team=self.get_object(), by=Actor.director(request.user))
        return Response(s.TeamSerializer(team).data)

    @extend_schema(request=None, responses={200: s.TeamSerializer})
    @action(detail=True, methods=["post"])
    def readmit(self, request: Request, slug: str, pk: str) -> Response:
        """Re-admit a withdrawn team (both players): paired again from the next round."""
        team = team_services.team_readmit(team=self.get_object(), by=Actor.director(request.user))
        return Response(s.TeamSerializer(team).data)

    @extend_schema(request=s.TeamRenameSerializer, responses={200: s.TeamSerializer})
    def partial_update(self, request: Request, slug: str, pk: str) -> Response:
        """Rename the team."""
        data = s.TeamRenameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_rename(
            team=self.get_object(),
            name=data.validated_data["name"],
            by=Actor.director(request.user),
        )
        return Response(s.TeamSerializer(team).data)

    def perform_destroy(self, instance: Team) -> None:
        team_services.team_dissolve(team=instance, by=Actor.director(self.request.user))

    @extend_schema(request=s.TeamsPasteSerializer, responses={201: s.TeamSerializer(many=True)})
    @action(detail=False, methods=["post"], pagination_class=None, filter_backends=[])
    def paste(self, request: Request, slug: str) -> Response:
        """Enter a pasted list of teams, all or nothing: every bad line is named."""
        data = s.TeamsPasteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        teams = pasted(
            "teams",
            lambda: team_services.teams_paste(
                tournament=self.tournament(),
                text=data.validated_data["teams"],
                by=Actor.director(request.user),
            ),
        )
        rows = self.get_queryset().filter(pk__in=[t.pk for t in teams])
        return Response(s.TeamSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.TeamFormSerializer, responses={201: s.TeamSerializer})
    @action(
        detail=False,
        methods=["post"],
        url_path="from-entries",
        pagination_class=None,
        filter_backends=[],
    )
    def from_entries(self, request: Request, slug: str) -> Response:
        """Two players already entered, and in no team, become a team."""
        data = s.TeamFormSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.tournament()
        entries = tournament.entries.select_related("player")
        team = team_services.team_form(
            tournament=tournament,
            name=data.validated_data["name"],
            first=entries.filter(pk=data.validated_data["first"]).first(),
            second=entries.filter(pk=data.validated_data["second"]).first(),
            by=Actor.director(request.user),
        )
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: OpenApiResponse(description="team standings with tie-breaks")})
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Request, slug: str) -> Response:
        tournament = self.tournament()
        team_services.check_team_event(tournament)
        return Response(team_standings(tournament=tournament).as_json())


class RoundViewSet(TournamentScoped, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """DELETE removes the last round (its ratings are replayed without it)."""

    serializer_class = s.RoundSerializer
    lookup_field = "number"
    lookup_value_regex = "[0-9]+"
    filterset_fields = ["status"]

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        tournament = self.tournament()
        rounds = tournament.rounds.order_by("number")
        if not can_direct(self.request.user, tournament):
            rounds = rounds.exclude(status=Round.Status.PAIRED)
        return rounds

    @extend_schema(
        request=s.PairRequestSerializer,
        responses={
            201: s.RoundSerializer,
            409: OpenApiResponse(
                description="the last round is not closed, or someone paired it first"
            ),
        },
    )
    def create(self, request: Request, slug: str) -> Response:
        """Pair the next round (turn)."""
        data = s.PairRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = round_services.round_pair_next(
            tournament=self.tournament(),
            by=Actor.director(request.user),
            draw=data.validated_data.get("draw"),
        )
        return Response(s.RoundSerializer(round_).data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance: Round) -> None:
        tournament_services.round_delete(round=instance, by=Actor.director(self.request.user))

    @extend_schema(request=None, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, slug: str, number: str) -> Response:
        round_ = round_services.round_publish(
            round=self.get_object(), by=Actor.director(request.user)
        )
        return Response(s.RoundSerializer(round_).data)

    @extend_schema(request=s.PairRequestSerializer, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def repair(self, request: Request, slug: str, number: str) -> Response:
        data = s.PairRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = round_services.round_repair(
            round=self.get_object(),
            by=Actor.director(request.user),
            draw=data.validated_data.get("draw"),
        )
        return Response(s.RoundSerializer(round_).data)

    @extend_schema(request=s.SwapSerializer, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, slug: str, number: str) -> Response:
        data = s.SwapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = self.tournament().entries
        first = get_object_or_404(entries, pk=data.validated_data["first"])
        second = get_object_or_404(entries, pk=data.validated_data["second"])
        round_ = self.get_object()
        round_services.round_swap_seats(
            round=round_,
            first=first,
            second=second,
            override_reason=data.validated_data.get("override_reason", ""),
            by=Actor.director(request.user),
        )
        return Response(s.RoundSerializer(round_).data)

    @extend_schema(
        request=s.MoveSerializer,
        responses={
            200: s.RoundSerializer,
            400: OpenApiResponse(
                description="bad input, or warnings the move creates without override_reason "
                "(listed in `warnings`)"
            ),
            409: OpenApiResponse(description="the round is published"),
        },
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, slug: str, number: str) -> Response:
        """Move a player to another table or (table null) to the bye before publishing."""
        data = s.MoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = get_object_or_404(self.tournament().entries, pk=data.validated_data["entry"])
        round_ = self.get_object()
        pairing_edit.round_seat_move(
            round=round_,
            entry=entry,
            table=data.validated_data["table"],
            override_reason=data.validated_data.get("override_reason", ""),
            by=Actor.director(request.user),
        )
        return Response(s.RoundSerializer(round_).data)

    def _moves(self, moves: list[dict[str, Any]]) -> list[tuple[Entry, Target]]:
        """The requested moves as the pairing editor's service takes them; an entry of
        another tournament is bad input, named by its place in the list."""
        found = (
            self.tournament().entries.select_related("player").in_bulk([m["entry"] for m in moves])
        )
        result: list[tuple[Entry, Target]] = []
        for i, move in enumerate(moves):
            entry = found.get(move["entry"])
            if entry is None:
                raise ValidationError(
                    {"moves": {i: {"entry": ["no such entry in this tournament"]}}}
                )
            to = move["to"]
            target: Target = None if to == "bye" else NEW_TABLE if to == "new" else int(to)
            result.append((entry, target))
        return result

    @extend_schema(
        request=s.RearrangeSerializer,
        responses={
            200: s.EditResultSerializer,
            400: OpenApiResponse(
                description="bad input, or warnings the moves create without override_reason "
                "(listed in `warnings`)"
            ),
            409: OpenApiResponse(description="the round is published"),
        },
    )
    @action(detail=True, methods=["post"])
    def rearrange(self, request: Request, slug: str, number: str) -> Response:
        """The pairing editor's save: several players moved at once before publishing,
        each to a table, the bye or the new table."""
        data = s.RearrangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = self.get_object()
        check = pairing_edit.round_seats_rearrange(
            round=round_,
            moves=self._moves(data.validated_data["moves"]),
            override_reason=data.validated_data.get("override_reason", ""),
            by=Actor.director(request.user),
        )
        round_.refresh_from_db()
        return Response(s.EditResultSerializer({"round": round_, **asdict(check)}).data)

    @extend_schema(
        request=s.SplitSerializer,
        responses={
            200: s.EditResultSerializer,
            400: OpenApiResponse(
                description="bad input, or warnings the split creates without override_reason "
                "(listed in `warnings`)"
            ),
            409: OpenApiResponse(description="the round is published"),
        },
    )
    @action(detail=True, methods=["post"])
    def split(self, request: Request, slug: str, number: str) -> Response:
        """Split a table of three or more by rank: the top two stay, the next two get a
        new table, an odd last player the bye."""
        data = s.SplitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = self.get_object()
        check = pairing_edit.round_table_split(
            round=round_,
            table=data.validated_data["table"],
            override_reason=data.validated_data.get("override_reason", ""),
            by=Actor.director(request.user),
        )
        round_.refresh_from_db()
        return Response(s.EditResultSerializer({"round": round_, **asdict(check)}).data)

    @extend_schema(request=s.EditCheckSerializer, responses={200: s.EditWarningsSerializer})
    @action(detail=True, methods=["post"], url_path="edit-check")
    def edit_check(self, request: Request, slug: str, number: str) -> Response:
        """What `rearrange` would warn about, nothing saved (the editor's live check):
        the round's warnings now, after the moves, and those the moves create."""
        data = s.EditCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        check = pairing_edit.round_edit_preview(
            round=self.get_object(), moves=self._moves(data.validated_data["moves"])
        )
        return Response(s.EditWarningsSerializer(asdict(check)).data)

    @extend_schema(request=s.CloseSerializer, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, slug: str, number: str) -> Response:
        data = s.CloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = round_services.round_close(
            round=self.get_object(),
            by=Actor.director(request.user),
            force=data.validated_data["force"],
        )
        return Response(s.RoundSerializer(round_).data)

    @extend_schema(request=None, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, slug: str, number: str) -> Response:
        """Reopen the last closed round while the next is not paired."""
        round_ = round_services.round_reopen(
            round=self.get_object(), by=Actor.director(request.user)
        )
        return Response(s.RoundSerializer(round_).data)

    @extend_schema(request=None, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def unpublish(self, request: Request, slug: str, number: str) -> Response:
        """Take back a published round nobody has played on yet."""
        round_ = round_services.round_unpublish(
            round=self.get_object(), by=Actor.director(request.user)
        )
        return Response(s.RoundSerializer(round_).data)

    @extend_schema(responses={200: s.TableOutSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def tables(self, request: Request, slug: str, number: str) -> Response:
        tables = round_tables(round_=self.get_object())
        return Response(s.TableOutSerializer(tables, many=True).data)


class SubmissionFilter(django_filters.FilterSet):
    round = django_filters.NumberFilter(field_name="game__table__round__number")
    game = django_filters.NumberFilter(field_name="game_id")

    class Meta:
        model = ResultSubmission
        fields = ["state"]


class SubmissionViewSet(TournamentScoped, viewsets.ReadOnlyModelViewSet):
    """Every report of the tournament's games: players' reports through their own links
    and directors' entries (the games' audit trail). Directors only. `accept/` makes a
    waiting or disputed report the game's result, as the results screen's button does."""

    serializer_class = s.SubmissionSerializer
    lookup_value_regex = "[0-9]+"
    filterset_class = SubmissionFilter
    ordering_fields = ["created_at"]
    error_codes = ("403",)

    def get_queryset(self) -> QuerySet[ResultSubmission]:
        if getattr(self, "swagger_fake_view", False):
            return ResultSubmission.objects.none()
        return (
            ResultSubmission.objects.filter(game__table__round__tournament=self.directors_only())
            .select_related("game__table__round", "by_seat__entry__player")
            .order_by("pk")
        )

    @extend_schema(
        request=s.AcceptSerializer,
        responses={
            200: s.GameSerializer,
            409: OpenApiResponse(
                description="the game changed since `version`, or the report is no longer open"
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, slug: str, pk: str) -> Response:
        """This report is the game's result; every other submission of the game is
        discarded."""
        data = s.AcceptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = result_services.result_accept(
            submission=self.get_object(),
            version=data.validated_data.get("version"),
            by=Actor.director(request.user),
            correction=data.validated_data["correction"],
        )
        return Response(s.GameSerializer(game).data)

    @extend_schema(
        request=s.CorrectionSerializer,
        responses={
            200: s.GameSerializer,
            409: OpenApiResponse(
                description="the entry is no longer held for the organiser, or its round "
                "is closed and `correction` was not given"
            ),
        },
    )
    @action(detail=True, methods=["post"], url_path="set-aside")
    def set_aside(self, request: Request, slug: str, pk: str) -> Response:
        """An entry held from a device's offline queue (docs/offline.md) is set aside:
        the game's result stays as it is, the entry stays in its trail, decided."""
        data = s.CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = result_services.result_held_set_aside(
            submission=self.get_object(),
            by=Actor.director(request.user),
            correction=data.validated_data["correction"],
        )
        return Response(s.GameSerializer(game).data)


def game_again(
    view: generics.GenericAPIView, request: Request, *args: Any, **kwargs: Any
) -> Response:
    """A replayed write's answer (docs/offline.md): its key keeps no game, so the game
    is read again as it now is, by the same lookup as the write's."""
    token = kwargs.get("token")
    game = _player(token, kwargs["game_id"])[1] if token else view.get_object()
    return Response(s.GameSerializer(game).data)


class GameViewSet(WriteThrottled, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """A game and its result. PUT/PATCH records a result: pieces out, a move record
    the rules engine validates, or the online client's event list."""

    serializer_class = s.GameSerializer
    permission_classes = [DirectorsWrite]
    filterset_fields = ["status", "table__round__number"]
    # POST only for the plies action (there is no game to create).
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[Game]:
        tournaments = visible_tournaments(self.request)
        return (
            Game.objects.filter(table__round__tournament__in=tournaments)
            .exclude(table__round__status=Round.Status.PAIRED)
            .select_related("table__round__tournament")
            .annotate(seat_count=Count("table__seats"))
            .order_by("id")
        )

    @extend_schema(
        request=s.GameResultSerializer,
        responses={
            200: s.GameSerializer,
            409: OpenApiResponse(
                description="the game changed since `version`, or its round is closed and "
                "`correction` was not given"
            ),
        },
    )
    @idempotent(reread=game_again)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        by = Actor.director(request.user)
        return game_answer(record_result(game, request, by))

    @extend_schema(
        parameters=[s.ClearResultSerializer],
        request=None,
        responses={
            200: s.GameSerializer,
            409: OpenApiResponse(description="the game changed since `version`"),
        },
    )
    @action(detail=True, methods=["delete"], url_path="result")
    def clear_result(self, request: Request, pk: str) -> Response:
        """Takes the game's result back: not played yet; its submissions stay listed,
        discarded. In a closed round standings and ratings are computed again."""
        query = s.ClearResultSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        game = result_services.game_clear(
            game=self.get_object(),
            version=query.validated_data.get("version"),
            by=Actor.director(request.user),
            correction=query.validated_data["correction"],
        )
        return Response(s.GameSerializer(game).data)

    @extend_schema(
        request=s.PlySerializer,
        responses={200: s.GameSerializer, 409: OpenApiResponse(description="another ply")},
    )
    @action(detail=True, methods=["post"], url_path="plies")
    @idempotent(reread=game_again)
    def plies(self, request: Request, pk: str) -> Response:
        """Record the game live, one ply at a time (or undo the last), as the board does."""
        return game_answer(record_ply(self.get_object(), request, Actor.director(request.user)))

    @extend_schema(request=s.TimerSerializer, responses={200: s.GameSerializer})
    @action(detail=True, methods=["post"], url_path="timer")
    @idempotent(reread=game_again)
    def timer(self, request: Request, pk: str) -> Response:
        """Pause or resume the table's egg timer, as the board's button does."""
        return Response(set_timer(self.get_object(), request, Actor.director(request.user)))

    @extend_schema(request=None, responses={200: s.GameSerializer})
    @action(detail=True, methods=["delete"], url_path="flag")
    def clear_flag(self, request: Request, pk: str) -> Response:
        """The organiser has looked at a flagged table (a ply another device sent was
        refused): the game's flag stops showing, as the results screen's button does."""
        game = self.get_object()
        ply_conflicts_clear(game=game, by=Actor.director(request.user))
        game.refresh_from_db()
        return Response(s.GameSerializer(game).data)


def game_answer(outcome: Outcome) -> Response:
    """The game as it now is; an entry sent from an offline queue and kept for the
    organiser (a dispute, a ply conflict) is a 202 saying so (docs/offline.md)."""
    if outcome.kept:
        return Response(outcome_body(outcome), status=202)
    return Response(s.GameSerializer(outcome.game).data)


def record_result(game: Game, request: Request, by: Actor) -> Outcome:
    data = s.GameResultSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    entry = ResultEntry(
        out=v.get("out"),
        finished=v["finished"],
        colours_out=v.get("colours_out"),
        moves=v.get("moves"),
        setup=v.get("setup"),
        events=v.get("events"),
        turn_ended=v["turn_ended"],
        position=v.get("position"),
    )
    return game_result_sync(
        game=game,
        entry=entry,
        version=v.get("version"),
        by=by,
        queued_at=queued_at(request),
        correction=v["correction"],
    )


class StandingsView(TournamentScoped, APIView):
    """Standings with tie-breaks. Cheap to poll: answers 304 to a matching ETag (made
    from the tournament's `standings_version`); a published tournament's polls are
    mostly answered before this view, by `StandingsPollMiddleware`."""

    @extend_schema(responses={200: OpenApiResponse(description="standings rows with tie-breaks")})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = self.tournament()
        return standings_response(tournament, request.headers.get("If-None-Match"))


def standings_response(tournament: Tournament, seen: str | None) -> HttpResponse:
    """304 for a matching ETag, else the standings body, rendered once per standings
    version (kept in the cache, so every process and poller shares it)."""
    token = standings_token(tournament)
    response: HttpResponse
    if etag_matches(seen, standings_etag(token)):
        response = HttpResponseNotModified()
    else:
        key = standings_key(token, "json")
        body = cache.get(key)
        if body is None:
            standings = tournament_standings(tournament=tournament)
            body = JSONRenderer().render(standings.as_json())
            cache.set(key, body, timeout=3600)
        response = HttpResponse(body, content_type="application/json")
    return standings_headers(response, token, tournament.updated_at)


T = TypeVar("T")


def pasted(field: str, paste: Callable[[], T]) -> T:
    """A pasted list through its service: a number or name too big for the database is
    the list's fault, named as its field (a 400), never a 500."""
    try:
        return paste()
    except (OverflowError, DataError):
        raise ServiceError("a rating is out of range or a name too long", field=field) from None


def record_ply(game: Game, request: Request, by: Actor) -> Outcome:
    data = s.PlySerializer(data=request.data)
    data.is_valid(raise_exception=True)
    return game_result_sync(
        game=game, entry=ResultEntry(ply=data.entry()), by=by, queued_at=queued_at(request)
    )


def _player(token: str, game_id: int) -> tuple[Actor, Game]:
    seat = get_object_or_404(
        Seat.objects.select_related("table__round"), report_token=token, table__is_bye=False
    )
    game = get_object_or_404(Game, table_id=seat.table_id, pk=game_id)
    return Actor.player(seat), game


class ReportView(WriteThrottled, generics.GenericAPIView):
    """A player reports a game of their table through their own private link's token."""

    permission_classes = [AllowAny]
    serializer_class = s.GameResultSerializer

    @extend_schema(request=s.GameResultSerializer, responses={200: s.GameSerializer})
    @idempotent(reread=game_again)
    def post(self, request: Request, token: str, game_id: int) -> Response:
        by, game = _player(token, game_id)
        return game_answer(record_result(game, request, by))


class PlyView(WriteThrottled, generics.GenericAPIView):
    """A player records her table's game live, one ply at a time, through her link's
    token: any ply of the game (one phone at the table, or one each); undo only her own."""

    permission_classes = [AllowAny]
    serializer_class = s.PlySerializer

    @extend_schema(request=s.PlySerializer, responses={200: s.GameSerializer})
    @idempotent(reread=game_again)
    def post(self, request: Request, token: str, game_id: int) -> Response:
        by, game = _player(token, game_id)
        return game_answer(record_ply(game, request, by))


def set_timer(game: Game, request: Request, by: Actor) -> dict[str, Any]:
    data = s.TimerSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    pause = data.validated_data["paused"]
    saved = (game_timer_pause if pause else game_timer_resume)(game=game, by=by)
    return s.GameSerializer(saved).data


class TimerView(WriteThrottled, generics.GenericAPIView):
    """A seat's link pauses or resumes her table's egg timer."""

    permission_classes = [AllowAny]
    serializer_class = s.TimerSerializer

    @extend_schema(request=s.TimerSerializer, responses={200: s.GameSerializer})
    @idempotent(reread=game_again)
    def post(self, request: Request, token: str, game_id: int) -> Response:
        by, game = _player(token, game_id)
        return Response(set_timer(game, request, by))


class ConfirmView(WriteThrottled, generics.GenericAPIView):
    """Another seat's player confirms a reported result; only then does it count."""

    permission_classes = [AllowAny]
    serializer_class = s.ConfirmSerializer

    @extend_schema(request=s.ConfirmSerializer, responses={200: s.GameSerializer})
    @idempotent(reread=game_again)
    def post(self, request: Request, token: str, game_id: int) -> Response:
        by, game = _player(token, game_id)
        data = s.ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        check_reporting_seat(by, data.validated_data.get("position"))
        return game_answer(game_confirm_sync(game=game, by=by))
