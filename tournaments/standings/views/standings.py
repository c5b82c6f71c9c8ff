"""The standings and the crosstable of a tournament: pages and CSV, polled while a round is open."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournaments.core.csv_export import SafeWriter
from tournaments.core.page_cache import public_page, ready_page
from tournaments.core.poll import POLL_MS, poll_etag
from tournaments.core.web import viewable_tournament
from tournaments.models import Tournament
from tournaments.standings.selectors.crosstable import tournament_crosstable
from tournaments.standings.selectors.standings import (
    standings_token,
    tournament_standings,
    version_token,
)


def _standings_csv(tournament: Tournament) -> HttpResponse:
    standings = tournament_standings(tournament=tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        ["rank", "player", "score", "rounds", "games", "per game", "per match"]
        + [label for label in standings.tiebreak_labels]
    )
    for row in standings.rows:
        writer.writerow(
            [row.rank, row.name, row.score, row.rounds, row.games, row.per_game, row.per_match]
            + list(row.tiebreaks)
        )
    # Below them, without rank or score, the players who did not play (not ranked).
    blank = [""] * len(standings.tiebreak_labels)
    for row in standings.not_ranked:
        writer.writerow(["", row.name, "", row.rounds, row.games, "", "", *blank])
    return response


# The standings page's early read for a visitor: plain SQL, one row (building the ORM's
# query, and the permission check's, cost more than the page from the cache; as for the
# round page, desk/views/public.py).
_STANDINGS_SQL = (
    "SELECT id, created_at, standings_version, updated_at "
    f"FROM {Tournament._meta.db_table} WHERE slug = %s AND published"
)


def _aware(value: datetime) -> datetime:
    # SQLite hands plain SQL naive datetimes (stored in UTC); PostgreSQL aware ones.
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


def _standings_from_cache(request: HttpRequest, slug: str) -> HttpResponse | None:
    """A visitor's standings page of a published tournament from one small query: a 304
    or the page kept in the cache; None sends the request the whole way (a render, a
    signed-in user, a hidden tournament, a 404)."""
    with connection.cursor() as cursor:
        cursor.execute(_STANDINGS_SQL, [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, created_at, version, updated_at = row
    token = version_token(pk, _aware(created_at), version)
    # The same ETag as below: `poll_etag` over the same values.
    etag = poll_etag(request, "standings", token, _aware(updated_at).timestamp())
    return ready_page(request, etag)


@require_GET
def tournament_standings_view(request: HttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated and not request.META.get("QUERY_STRING"):
        early = _standings_from_cache(request, slug)
        if early is not None:
            return early
    tournament = viewable_tournament(request, slug)
    fmt = request.GET.get("format")
    if fmt == "csv":
        return _standings_csv(tournament)
    if fmt == "json":
        return JsonResponse(tournament_standings(tournament=tournament).as_json())
    if "projector" in request.GET:
        return render(
            request,
            "tournaments/projector.html",
            {"tournament": tournament, "standings": tournament_standings(tournament=tournament)},
        )
    # The tournament was read by this request: its standings version is current.
    etag = poll_etag(
        request, "standings", standings_token(tournament), tournament.updated_at.timestamp()
    )
    return public_page(
        request,
        etag,
        lambda etag: render(
            request,
            "tournaments/standings.html",
            {
                "tournament": tournament,
                "standings": tournament_standings(tournament=tournament),
                "poll_etag": etag,
                "live_poll": POLL_MS,
            },
        ),
    )


@require_GET
def tournament_crosstable_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = viewable_tournament(request, slug)
    if request.GET.get("format") == "csv":
        return tournament_crosstable_csv(request, slug)
    return render(
        request,
        "tournaments/crosstable.html",
        {"tournament": tournament, "crosstable": tournament_crosstable(tournament=tournament)},
    )


@require_GET
def tournament_crosstable_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """One row per player in standings order, one column per opponent holding the sum of
    her head-to-head dropped scores against that opponent (numbers stay numbers); empty
    when they never met, "round N" for a league meeting still to come. A 2 vs 2 event's
    rows and columns are teams."""
    tournament = viewable_tournament(request, slug)
    table = tournament_crosstable(tournament=tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-crosstable.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        ["no.", "team" if table.teams else "player"]
        + [f"{line.number} {line.standing.name}" for line in table.lines]
        + ["games", "head-to-head", "score", "rank"]
    )
    for line in table.lines:
        cells: list[object] = []
        for i, cell in enumerate(line.cells, start=1):
            if cell is None or i == line.number:
                cells.append("")
            elif cell.played:
                cells.append(cell.total)
            else:
                cells.append(" ".join(f"round {e.round}" for e in cell.encounters))
        writer.writerow(
            [line.number, line.standing.name, *cells]
            + [line.row.games, line.row.total, line.standing.score, line.standing.rank]
        )
    return response
