"""The API of results: games and their results, plies and the egg timer, players' reports by their link, the organiser's decisions on submissions."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.common import (
    TournamentScoped,
    WriteThrottled,
    director_action,
    visible_tournaments,
)
from tournaments.api.permissions import DirectorsWrite
from tournaments.core.actor import Actor
from tournaments.desk.services.night import (
    notice_undo,
    seat_late,
    seat_leave_after_round,
    seat_seen,
    seat_skip_next_round,
)
from tournaments.models import (
    Game,
    ResultSubmission,
    Round,
    Seat,
    SeatNotice,
)
from tournaments.results.offline import idempotent, outcome_body, queued_at
from tournaments.results.selectors.night import round_night
from tournaments.results.services import results as result_services
from tournaments.results.services.no_show import seat_forfeit
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
        return director_action(
            request,
            result_services.result_held_set_aside,
            data=s.CorrectionSerializer,
            out=s.GameSerializer,
            submission=self.get_object(),
        )


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


class NightView(WriteThrottled, generics.GenericAPIView):
    """A player's night through her own link (docs/results.md, "Players manage their
    own night"): late, skip the next round, leave after this round; with her seat's
    actor, as the link's page does. A closed round answers 409 and changes nothing."""

    permission_classes = [AllowAny]
    serializer_class = s.NightChoiceSerializer
    services = {"late": seat_late, "skip": seat_skip_next_round, "leave": seat_leave_after_round}

    @extend_schema(request=s.NightChoiceSerializer, responses={200: s.SeatNoticeSerializer})
    def post(self, request: Request, token: str) -> Response:
        seat = get_object_or_404(
            Seat.objects.select_related("table__round", "entry__player"),
            report_token=token,
            table__is_bye=False,
        )
        data = s.NightChoiceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        service = self.services[data.validated_data["choice"]]
        notice = service(seat=seat, by=Actor.player(seat))
        return Response(s.SeatNoticeSerializer(notice).data)


class RoundNightView(TournamentScoped, generics.GenericAPIView):
    """The organiser's view of a round's night: who is late, who said she is leaving or
    skipping, who is a no-show now (by the server's clock)."""

    serializer_class = s.RoundNightSerializer
    # A read for the event's directors alone: anyone else is refused (403).
    error_codes = ("403",)

    def get(self, request: Request, slug: str, number: int) -> Response:
        tournament = self.directors_only()
        round_ = get_object_or_404(Round, tournament=tournament, number=number)
        return Response(s.RoundNightSerializer(round_night(round_=round_)).data)


def _seat(tournament: Any, seat_id: int) -> Seat:
    return get_object_or_404(
        Seat.objects.select_related("table__round", "entry__player"),
        pk=seat_id,
        round__tournament=tournament,
        table__is_bye=False,
    )


class NoticeUndoView(TournamentScoped, generics.GenericAPIView):
    """The organiser undoes a player's notice: re-admitted, the skip taken back, the
    late flag cleared."""

    serializer_class = s.SeatNoticeSerializer

    @extend_schema(request=None, responses={200: s.SeatNoticeSerializer})
    def post(self, request: Request, slug: str, notice_id: int) -> Response:
        notice = get_object_or_404(
            SeatNotice.objects.select_related("seat__table", "seat__entry__player"),
            pk=notice_id,
            seat__round__tournament=self.tournament(),
        )
        return director_action(request, notice_undo, out=s.SeatNoticeSerializer, notice=notice)


class SeatSeenView(TournamentScoped, generics.GenericAPIView):
    """The organiser's check: this seat's player is at her table."""

    serializer_class = s.SeatNoticeSerializer

    @extend_schema(request=None, responses={200: s.SeatNoticeSerializer})
    def post(self, request: Request, slug: str, seat_id: int) -> Response:
        seat = _seat(self.tournament(), seat_id)
        return director_action(request, seat_seen, out=s.SeatNoticeSerializer, seat=seat)


class SeatForfeitView(TournamentScoped, generics.GenericAPIView):
    """The organiser forfeits a no-show: her table's games without a result are
    entered through the one result path (docs/scoring.md, "Forfeits")."""

    serializer_class = s.ForfeitSerializer

    @extend_schema(request=None, responses={200: s.ForfeitSerializer})
    def post(self, request: Request, slug: str, seat_id: int) -> Response:
        seat = _seat(self.tournament(), seat_id)
        notice = seat_forfeit(seat=seat, by=Actor.director(request.user))
        return Response(s.ForfeitSerializer({"forfeited": notice is not None}).data)
