from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from tournaments.core.permissions import can_direct, can_view, check_written_here
from tournaments.models import Tournament


def tournament_of(obj: Any) -> Tournament | None:
    """The tournament an API object belongs to (tables, rounds, games, entries, forbidden
    pairs, result submissions...)."""
    for path in (
        "tournament",
        "round.tournament",
        "table.round.tournament",
        "game.table.round.tournament",
    ):
        current = obj
        for part in path.split("."):
            current = getattr(current, part, None)
            if current is None:
                break
        if isinstance(current, Tournament):
            return current
    return obj if isinstance(obj, Tournament) else None


class DirectorsWrite(permissions.BasePermission):
    """Anyone reads what is published; a tournament's directors, its club's organisers
    and staff write to it, and to nothing else."""

    message = "only this tournament's directors may change it"

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        tournament = tournament_of(obj)
        if tournament is None:
            return bool(request.user and request.user.is_staff)
        if request.method in permissions.SAFE_METHODS:
            return can_view(request.user, tournament)
        if not can_direct(request.user, tournament):
            return False
        check_written_here(tournament)  # run at a venue, or taken over: a 409
        return True
