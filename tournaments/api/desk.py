"""The API of the desk: clubs, players, tournaments, entries, forbidden pairs, teams and
rounds: thin views over the same services and selectors as the pages."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.common import (
    TournamentScoped,
    WriteThrottled,
    director_action,
    pasted,
    visible_tournaments,
)
from tournaments.api.permissions import DirectorsWrite
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_direct, can_organise
from tournaments.core.visibility import (
    players_visible_to,
    seed_seasons,
    seed_sources,
)
from tournaments.desk.rows import why_json
from tournaments.desk.selectors.explanations import round_why
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
    Player,
    Round,
    Season,
    Team,
    Tournament,
)
from tournaments.results.selectors.rounds import round_tables
from tournaments.standings.selectors.teams import team_standings
from tournaments.transfer.services import tournament_import_document


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
        return director_action(
            request,
            tournament_services.tournament_add_rounds,
            data=s.AddRoundsSerializer,
            out=s.TournamentSerializer,
            tournament=self.get_object(),
        )

    @extend_schema(request=None, responses={200: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="close-evening", filter_backends=[])
    def close_evening(self, request: Request, slug: str) -> Response:
        """Close a club evening (every round closed) and rate it as one period."""
        return director_action(
            request, evening_close, out=s.TournamentSerializer, tournament=self.get_object()
        )

    @extend_schema(request=None, responses={200: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="reopen-evening", filter_backends=[])
    def reopen_evening(self, request: Request, slug: str) -> Response:
        """Reopen a closed club evening; its rating is taken back until it is closed again."""
        return director_action(
            request, evening_reopen, out=s.TournamentSerializer, tournament=self.get_object()
        )


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
        return director_action(
            request, entry_services.entry_withdraw, out=s.EntrySerializer, entry=self.get_object()
        )

    @extend_schema(request=None, responses={200: s.EntrySerializer})
    @action(detail=True, methods=["post"])
    def readmit(self, request: Request, slug: str, pk: str) -> Response:
        """Undo a withdrawal: paired again from the next round."""
        return director_action(
            request, entry_services.entry_readmit, out=s.EntrySerializer, entry=self.get_object()
        )

    @extend_schema(request=s.CheckInSerializer, responses={200: s.EntrySerializer})
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, slug: str, pk: str) -> Response:
        """At the door (``present``: false takes it back)."""
        return director_action(
            request,
            entry_services.entry_check_in,
            data=s.CheckInSerializer,
            out=s.EntrySerializer,
            entry=self.get_object(),
        )


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
        return director_action(
            request, team_services.team_withdraw, out=s.TeamSerializer, team=self.get_object()
        )

    @extend_schema(request=None, responses={200: s.TeamSerializer})
    @action(detail=True, methods=["post"])
    def readmit(self, request: Request, slug: str, pk: str) -> Response:
        """Re-admit a withdrawn team (both players): paired again from the next round."""
        return director_action(
            request, team_services.team_readmit, out=s.TeamSerializer, team=self.get_object()
        )

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

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="each table's explanation: score groups, players moved between "
                "groups and why, the 3-player table or the bye and why, the pairing check's "
                'warnings, and the same in words (docs/pairing.md, "Explanations")'
            ),
            404: OpenApiResponse(description="no such round, or one not explained"),
        }
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def explanations(self, request: Request, slug: str, number: str) -> Response:
        """Why each table of the round is as it is (a Swiss of players; a league follows
        its schedule, a club evening and a 2 vs 2 event their own tables: 404)."""
        why = round_why(self.get_object())
        if why is None:
            raise NotFound(_("this round's tables are not explained"))
        return Response(why_json(why))

    @extend_schema(request=None, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, slug: str, number: str) -> Response:
        return director_action(
            request, round_services.round_publish, out=s.RoundSerializer, round=self.get_object()
        )

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
        return director_action(
            request,
            round_services.round_close,
            data=s.CloseSerializer,
            out=s.RoundSerializer,
            round=self.get_object(),
        )

    @extend_schema(request=None, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, slug: str, number: str) -> Response:
        """Reopen the last closed round while the next is not paired."""
        return director_action(
            request, round_services.round_reopen, out=s.RoundSerializer, round=self.get_object()
        )

    @extend_schema(request=None, responses={200: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    def unpublish(self, request: Request, slug: str, number: str) -> Response:
        """Take back a published round nobody has played on yet."""
        return director_action(
            request, round_services.round_unpublish, out=s.RoundSerializer, round=self.get_object()
        )

    @extend_schema(responses={200: s.TableOutSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def tables(self, request: Request, slug: str, number: str) -> Response:
        tables = round_tables(round_=self.get_object())
        return Response(s.TableOutSerializer(tables, many=True).data)
