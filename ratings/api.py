from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import rulesets
from tournaments.api.schema import ApiSchema
from tournaments.models import GAMES, Club, Player

from .models import SYSTEM_CHOICES, PlayerRating
from .selectors import is_provisional, leaderboard, player_history

SYSTEMS = [key for key, _ in SYSTEM_CHOICES]


class RatingSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.name")
    player_id = serializers.IntegerField()
    club = serializers.CharField(source="player.club.slug", allow_null=True, default=None)
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = PlayerRating
        fields = [
            "player_id",
            "player",
            "club",
            "system",
            "rating",
            "deviation",
            "games",
            "last_played",
            "provisional",
        ]

    def get_provisional(self, rating: PlayerRating) -> bool:
        return is_provisional(rating)


def _system(request: Request) -> str:
    system = request.query_params.get("system", "glicko2")
    if system not in SYSTEMS:
        raise serializers.ValidationError({"system": [f"one of {', '.join(SYSTEMS)}"]})
    return system


GAME_NAMES = [key for key, _ in GAMES]


def _game(request: Request) -> str:
    game = request.query_params.get("game", rulesets.DEFAULT)
    if game not in GAME_NAMES:
        raise serializers.ValidationError({"game": [f"one of {', '.join(GAME_NAMES)}"]})
    return game


def _number(request: Request, name: str, default: int, maximum: int = 2**31 - 1) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise serializers.ValidationError({name: ["a whole number"]}) from None
    if value < 0:
        raise serializers.ValidationError({name: ["not negative"]})
    if value > maximum:
        raise serializers.ValidationError({name: [f"at most {maximum}"]})
    return value


@extend_schema(
    parameters=[
        OpenApiParameter("system", str, enum=SYSTEMS),
        OpenApiParameter("game", str, enum=GAME_NAMES),
        OpenApiParameter("club", str),
        OpenApiParameter("active_days", int, description="0 for all time; at most 36600"),
        OpenApiParameter("min_games", int),
    ]
)
class LeaderboardView(ListAPIView):
    """Leaderboard per rating system, optionally per club, with activity filters."""

    serializer_class = RatingSerializer
    filter_backends: list[type] = []
    schema = ApiSchema()
    error_codes = ("404",)  # `club` names no club

    def get_queryset(self):  # type: ignore[no-untyped-def]
        request = self.request
        club = request.query_params.get("club")
        club_id = None
        if club:
            club_id = get_object_or_404(Club, slug=club).pk
        return leaderboard(
            system=_system(request),
            game=_game(request),
            club_id=club_id,
            active_days=_number(request, "active_days", 365, maximum=100 * 366) or None,
            min_games=_number(request, "min_games", 0),
        )


class HistorySerializer(serializers.Serializer):
    label = serializers.CharField()
    when = serializers.CharField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    deviation = serializers.FloatField(allow_null=True)


class PlayerRatingHistoryView(APIView):
    schema = ApiSchema()

    @extend_schema(
        parameters=[OpenApiParameter("system", str, enum=SYSTEMS)],
        responses={200: HistorySerializer(many=True)},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's rating before and after every rated period."""
        player = get_object_or_404(Player, pk=player_id)
        history = player_history(player_id=player.pk, system=_system(request), game=_game(request))
        return Response(HistorySerializer(history, many=True).data)
