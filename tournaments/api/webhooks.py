"""A club's webhooks in the API (docs/api.md, docs/league.md "Webhooks"): the club
page's section through the same services (tournaments/webhooks/services.py). Only the
club's organisers read or write them: anyone else is refused (403) and changes
nothing."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.common import WriteThrottled
from tournaments.core.actor import Actor
from tournaments.core.permissions import can_organise
from tournaments.models import Club, WebhookDelivery, WebhookEndpoint, WebhookEvent
from tournaments.webhooks import services
from tournaments.webhooks.selectors import endpoint_deliveries

# The deliveries answered at once: the newest (the log is kept WEBHOOK_LOG_DAYS).
DELIVERIES_LISTED = 50


class WebhookEndpointSerializer(serializers.ModelSerializer):
    """An endpoint as listed: never its secret (shown once, in the answer to POST)."""

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "url", "description", "events", "active", "created_at"]
        read_only_fields = fields


class WebhookCreateSerializer(serializers.Serializer):
    url = serializers.CharField(
        max_length=500, help_text="http or https; no loopback or private address."
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WebhookEvent.values),
        help_text="One or more of: " + ", ".join(WebhookEvent.values) + ".",
    )
    description = serializers.CharField(max_length=120, required=False, allow_blank=True)


class WebhookActiveSerializer(serializers.Serializer):
    active = serializers.BooleanField(help_text="false: disabled (sent nothing new).")


class WebhookDeliverySerializer(serializers.ModelSerializer):
    """One message and its last answer: the status, when, how long it took, the start
    of its body (at most 500 characters), or why no answer came."""

    endpoint = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = WebhookDelivery
        fields = [
            "message_id",
            "endpoint",
            "event",
            "status",
            "attempts",
            "created_at",
            "last_attempt_at",
            "next_attempt_at",
            "response_status",
            "response_ms",
            "response_excerpt",
            "error",
            "payload",
        ]
        read_only_fields = fields


class Organisers(permissions.BasePermission):
    """A login first (401 without); the club's organisers then (the view: 403)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)


CLUB = OpenApiParameter("club_slug", OpenApiTypes.STR, OpenApiParameter.PATH)


@extend_schema(parameters=[CLUB])
class WebhookViewSet(WriteThrottled, viewsets.ModelViewSet):
    """The club's webhook endpoints. POST adds one (its `secret` in that answer only),
    PATCH `{"active": false}` disables one and `true` enables it again, DELETE removes
    it and its log; `test/` sends it a `webhook.test` message, `deliveries/` is its log."""

    permission_classes = [Organisers]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    filter_backends: list[Any] = []
    serializer_class = WebhookEndpointSerializer
    pagination_class = None
    # A read is refused too (403): an address and its log are the organisers' alone.
    error_codes = ("403",)

    def club(self) -> Club:
        cached = getattr(self, "_club", None)
        if cached is None:
            cached = Club.objects.filter(slug=self.kwargs["club_slug"]).first()
            if cached is None:
                raise Http404(_("no such club"))
            if not can_organise(self.request.user, cached):
                self.permission_denied(self.request, _("only this club's organisers may do that"))
            self._club = cached
        return cached

    def get_queryset(self) -> QuerySet[WebhookEndpoint]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator: no club
            return WebhookEndpoint.objects.none()
        return WebhookEndpoint.objects.filter(club=self.club()).order_by("created_at", "pk")

    def _by(self) -> Actor:
        return Actor.director(self.request.user)

    @extend_schema(
        request=WebhookCreateSerializer,
        responses={
            201: inline_serializer(
                "WebhookCreated",
                {
                    "id": serializers.IntegerField(),
                    "url": serializers.CharField(),
                    "description": serializers.CharField(),
                    "events": serializers.ListField(child=serializers.CharField()),
                    "active": serializers.BooleanField(),
                    "created_at": serializers.DateTimeField(),
                    "secret": serializers.CharField(help_text="whsec_…, shown this once"),
                },
            )
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = self.club()
        data = WebhookCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        endpoint, secret = services.webhook_endpoint_create(
            club=club, by=self._by(), **data.validated_data
        )
        answer = {**WebhookEndpointSerializer(endpoint).data, "secret": secret}
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(request=WebhookActiveSerializer, responses={200: WebhookEndpointSerializer})
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        endpoint = self.get_object()
        data = WebhookActiveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        endpoint.club = self.club()
        endpoint = services.webhook_endpoint_set_active(
            endpoint=endpoint, active=data.validated_data["active"], by=self._by()
        )
        return Response(WebhookEndpointSerializer(endpoint).data)

    def perform_destroy(self, instance: WebhookEndpoint) -> None:
        instance.club = self.club()
        services.webhook_endpoint_delete(endpoint=instance, by=self._by())

    @extend_schema(request=None, responses={202: WebhookDeliverySerializer})
    @action(detail=True, methods=["post"])
    def test(self, request: Request, club_slug: str, pk: str) -> Response:
        """Send this endpoint a `webhook.test` message (signed and retried as any
        other); its answer shows in `deliveries/`."""
        endpoint = self.get_object()
        endpoint.club = self.club()
        delivery = services.webhook_test_send(endpoint=endpoint, by=self._by())
        delivery.refresh_from_db()
        return Response(WebhookDeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: WebhookDeliverySerializer(many=True)})
    @action(detail=True, methods=["get"])
    def deliveries(self, request: Request, club_slug: str, pk: str) -> Response:
        """The endpoint's last 50 messages, newest first, each with its last answer."""
        endpoint = self.get_object()
        rows = endpoint_deliveries(endpoint)[:DELIVERIES_LISTED]
        return Response(WebhookDeliverySerializer(rows, many=True).data)
