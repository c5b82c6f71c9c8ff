"""Reads for a club's webhooks: the endpoints and delivery log of the club page (two
queries, whatever the number of endpoints), the endpoints an event goes to, and the
events' JSON (docs/league.md, "Webhooks": one `data` per event type)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from tournaments.models import (
    Club,
    Game,
    Round,
    Seat,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
)

# The club page's log: the last this many messages of the club's endpoints.
LOG_ROWS = 20


@dataclass(frozen=True)
class ClubWebhooks:
    endpoints: list[WebhookEndpoint]
    deliveries: list[WebhookDelivery]


def club_webhooks(club: Club) -> ClubWebhooks:
    """The club's endpoints and its last LOG_ROWS deliveries (newest first): two
    queries."""
    endpoints = list(WebhookEndpoint.objects.filter(club=club).order_by("created_at", "pk"))
    deliveries = list(
        WebhookDelivery.objects.filter(endpoint__club=club)
        .select_related("endpoint")
        .order_by("-created_at", "-pk")[:LOG_ROWS]
    )
    return ClubWebhooks(endpoints=endpoints, deliveries=deliveries)


def endpoint_deliveries(endpoint: WebhookEndpoint) -> QuerySet[WebhookDelivery]:
    return WebhookDelivery.objects.filter(endpoint=endpoint).order_by("-created_at", "-pk")


def listening(endpoints: Iterable[WebhookEndpoint], event: str) -> list[WebhookEndpoint]:
    """The endpoints among these that chose this event (the list is read in Python: a
    JSON containment lookup is not there on SQLite, and a club has a few endpoints)."""
    return [e for e in endpoints if event in (e.events or [])]


def active_endpoints_of_tournament(tournament_id: int) -> list[WebhookEndpoint]:
    """One query: the active endpoints of the tournament's club (none for most clubs)."""
    return list(WebhookEndpoint.objects.filter(active=True, club__tournaments__id=tournament_id))


def active_endpoints_of_clubs(club_ids: list[int] | None) -> list[WebhookEndpoint]:
    rows = WebhookEndpoint.objects.filter(active=True)
    if club_ids is not None:
        rows = rows.filter(club_id__in=club_ids)
    return list(rows)


def tournaments_of_players(player_ids: list[int]) -> list[int]:
    """The events these players entered whose club has an active endpoint: one query."""
    return list(
        Tournament.objects.filter(
            entries__player_id__in=player_ids, club__webhook_endpoints__active=True
        )
        .values_list("pk", flat=True)
        .distinct()
    )


def _tournament(tournament: Tournament) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "club": tournament.club.slug,
        "page": reverse("tournament-detail", args=[tournament.slug]),
        "api": reverse("api:tournament-detail", args=[tournament.slug]),
    }


def round_data(round_id: int) -> dict[str, Any] | None:
    """A round published or closed: the event, the round's number and times, and where
    its pairings are read."""
    round_ = Round.objects.select_related("tournament__club").filter(pk=round_id).first()
    if round_ is None:
        return None
    tournament = round_.tournament
    return {
        "tournament": _tournament(tournament),
        "round": {
            "number": round_.number,
            "status": round_.status,
            "published_at": round_.published_at.isoformat() if round_.published_at else None,
            "closed_at": round_.closed_at.isoformat() if round_.closed_at else None,
            "api": reverse("api:round-detail", args=[tournament.slug, round_.number]),
        },
    }


def game_data(game_id: int) -> tuple[int, dict[str, Any]] | None:
    """A result that counts: the game, its table and round, the seats' players and
    their pieces out (as the API's game). With the tournament's id, for the club."""
    game = Game.objects.select_related("table__round__tournament__club").filter(pk=game_id).first()
    if game is None:
        return None
    round_ = game.table.round
    seats = Seat.objects.filter(table_id=game.table_id).select_related("entry__player")
    outs = {i: getattr(game, f"out_{i}") for i in range(1, 5)}
    data = {
        "tournament": _tournament(round_.tournament),
        "round": round_.number,
        "table": game.table.number,
        "game": {
            "id": game.pk,
            "number": game.number,
            "status": game.status,
            "version": game.version,
            "api": reverse("api:game-detail", args=[game.pk]),
        },
        "seats": [
            {"position": s.position, "player": s.entry.player.name, "out": outs.get(s.position)}
            for s in seats
        ],
    }
    return round_.tournament_id, data


def standings_data(tournament_id: int) -> dict[str, Any] | None:
    """The standings changed: their new version and where they are read (the
    receiver reads them there, with the version as its ETag's cause)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        return None
    return {
        "tournament": _tournament(tournament),
        "standings_version": tournament.standings_version,
        "standings": reverse("api:standings", args=[tournament.slug]),
    }


def tournament_of_round(round_id: int) -> int | None:
    return Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()


def tournament_of_game(game_id: int) -> int | None:
    return (
        Game.objects.filter(pk=game_id)
        .values_list("table__round__tournament_id", flat=True)
        .first()
    )


def ratings_data(club_id: int, *, job_id: int | None) -> dict[str, Any]:
    """The ratings changed after a rating job: the club's rating list is read at the
    API's ratings (its club's system shown on its pages)."""
    club = Club.objects.get(pk=club_id)
    return {
        "club": club.slug,
        "rating_system": club.rating_system,
        "job": job_id,
        "ratings": reverse("api:leaderboard") + f"?system={club.rating_system}&club={club.slug}",
    }
