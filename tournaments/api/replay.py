"""The read-only rules endpoint: validate a move record, get the engine's JSON."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import rulesets
from tournaments.api.schema import ApiSchema
from tournaments.api.serializers import RecordSerializer
from tournaments.core.json_errors import error_body


class ReplayView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    schema = ApiSchema()

    @extend_schema(
        request=RecordSerializer,
        responses={
            200: OpenApiResponse(
                description="the record's replay: ok, plies, finished, to_move, out, error {ply, move, reason}"
            ),
            400: OpenApiResponse(description="not a record"),
        },
        examples=[
            OpenApiExample(
                "two moves",
                value={"players": 2, "variant": "standard", "moves": ["W-W1B", "B-B1R"]},
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Replay a record; an illegal move gives ok=false with its ply and reason."""
        data = RecordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The record is the default game's (players, variant, moves): a client names no
        # game here.
        ruleset = rulesets.get(rulesets.DEFAULT)
        try:
            result = ruleset.replay(dict(data.validated_data))
        except ruleset.refused as exc:
            return Response(error_body(exc, field="moves"), status=400)
        return Response(result.to_dict())
