"""What every API view shares: throttled writes, the tournament a scoped view works on, the body of a director's action, a paste's refusal named by its field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import DataError
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import filters, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from tournaments.api.permissions import DirectorsWrite
from tournaments.api.schema import ApiSchema
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_direct, can_view, check_written_here
from tournaments.core.visibility import (
    tournaments_visible_to,
)
from tournaments.models import (
    Tournament,
)

T = TypeVar("T")


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
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                check_written_here(cached)  # a 409 in the one error shape
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


def pasted(field: str, paste: Callable[[], T]) -> T:
    """A pasted list through its service: a number or name too big for the database is
    the list's fault, named as its field (a 400), never a 500."""
    try:
        return paste()
    except (OverflowError, DataError):
        raise ServiceError("a rating is out of range or a name too long", field=field) from None


def director_action(
    request: Request,
    service: Callable[..., Any],
    *,
    out: type[serializers.BaseSerializer[Any]],
    data: type[serializers.Serializer[Any]] | None = None,
    **targets: Any,
) -> Response:
    """The body most actions share: the request's fields checked by ``data`` (each
    passed on by its name), the service called on ``targets`` by the signed-in director,
    its answer in ``out``."""
    fields: dict[str, Any] = {}
    if data is not None:
        checked = data(data=request.data)
        checked.is_valid(raise_exception=True)
        fields = dict(checked.validated_data)
    return Response(out(service(**targets, **fields, by=Actor.director(request.user))).data)
